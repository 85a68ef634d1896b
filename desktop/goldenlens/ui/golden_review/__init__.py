"""The judge's golden-set review pane."""
