"""Small widgets the panes share: cards, lists, run panel, layouts."""
