"""The local judge: models, prompts; the only place llama_cpp loads."""
