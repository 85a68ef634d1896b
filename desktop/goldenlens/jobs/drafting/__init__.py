"""Golden rows drafted from source documents by the judge."""
