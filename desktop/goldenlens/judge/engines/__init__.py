"""Judge and embedding engines: the protocol (:mod:`.protocol`), the owner-thread base with
the lifecycle (:mod:`.base`), llama.cpp in-process (:mod:`.llama`, :mod:`.embedding`) and an
OpenAI-compatible server (:mod:`.http`)."""
