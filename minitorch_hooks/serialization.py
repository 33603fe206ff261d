"""``torch.save`` and ``torch.load``, in PyTorch's own file format.

A checkpoint is a zip archive (stored, not compressed) holding:

* ``archive/data.pkl``: the object, pickled (protocol 2). A tensor is pickled as a call,
  ``torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, ...)``, and
  each storage as a *persistent id*, ``("storage", torch.FloatStorage, "0", "cpu", numel)``,
  a reference to a record beside the pickle instead of its bytes;
* ``archive/data/0``, ``archive/data/1`` ...: the raw bytes of each storage, once, however
  many tensors view it. So a tensor and its transpose, or a row of a matrix, are saved as
  one storage and come back sharing memory, with their strides and offsets;
* ``byteorder``, ``version`` and a few records of metadata.

Because the names in the pickle and the layout of the archive are PyTorch's, a state dict
saved here loads in PyTorch 2.13, and one saved by PyTorch loads here. Loading is
weights-only by default (``_weights_only_unpickler.py``). Modules pickle under their own
names (``minitorch_hooks.nn.modules.linear.Linear``), and with ``weights_only=False`` a
module PyTorch saved comes back as this library's class of the same name.
See <https://docs.pytorch.org/docs/2.13/notes/serialization.html>
"""

from __future__ import annotations

import importlib
import io
import os
import pickle
import warnings
import zipfile
import zlib
from collections import OrderedDict
from types import FunctionType
from typing import IO, Any

import numpy as np

from . import _dtype, _utils
from ._size import Size
from ._tensor import Tensor, wrap
from ._weights_only_unpickler import (
    Unpickler as WeightsOnlyUnpickler,
)
from ._weights_only_unpickler import (  # noqa: F401 - torch.serialization's public names
    add_safe_globals,
    clear_safe_globals,
    get_safe_globals,
    safe_globals,
)
from .nn.parameter import Parameter
from .utils.hooks import warn_if_has_hooks

FileLike = str | os.PathLike | IO[bytes]

_ALIGNMENT = 64  # PyTorch aligns each storage record, so that a file can be memory-mapped

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
    "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to "
    "`False` will likely succeed, but it can result in arbitrary code execution. Do it only "
    "if you got the file from a trusted source.")
_DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default "
    "with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


class StorageType:
    """``torch.FloatStorage`` and the like, as a checkpoint names them: a storage's dtype."""

    def __init__(self, name: str, dtype: _dtype.dtype) -> None:
        self.name, self.dtype = name, dtype

    def __repr__(self) -> str:
        return f"StorageType(dtype={self.dtype})"

    def __reduce__(self) -> str:  # written as the global torch.<name> (_Pickler.save_global)
        return self.name


STORAGE_TYPES = {f"{d.scalar_name}Storage": StorageType(f"{d.scalar_name}Storage", d)
                 for d in _dtype._BY_NUMPY.values()}
_STORAGE_TYPE_OF = {st.dtype: st for st in STORAGE_TYPES.values()}


def _torch_named_objects() -> dict[str, Any]:
    """Our objects that a checkpoint names with PyTorch's names, so that PyTorch can load it
    and we can load PyTorch's: ``"torch.FloatStorage"``, ``"torch.float32"``..."""
    return {"torch._utils._rebuild_tensor_v2": _utils._rebuild_tensor_v2,
            "torch._utils._rebuild_parameter": _utils._rebuild_parameter,
            "torch._utils._rebuild_parameter_with_state": _utils._rebuild_parameter_with_state,
            "torch.Size": Size,
            **{f"torch.{st.name}": st for st in STORAGE_TYPES.values()},
            **{f"torch.{d.name}": d for d in _dtype._BY_NUMPY.values()}}


_TORCH_NAMES = {id(obj): tuple(name.rsplit(".", 1)) for name, obj in _torch_named_objects().items()}


# == saving =====================================================================================
class _Storage:
    """The memory one or more tensors view: a NumPy array that owns it, or a tensor's own copy
    when its memory cannot be written as one block."""

    def __init__(self, key: str, array: np.ndarray) -> None:
        self.key, self.array = key, array


class _Pickler(pickle._Pickler):  # the Python one: its save_global can be replaced
    """Pickles tensors as PyTorch does, and collects the storages they view."""

    def __init__(self, file: IO[bytes]) -> None:
        super().__init__(file, protocol=2)
        self.storages: dict[int, _Storage] = {}
        # Python's pickler saves functions with its own save_global, not an override.
        self.dispatch = {**pickle._Pickler.dispatch, FunctionType: type(self).save_global}

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Parameter):
            warn_if_has_hooks(obj)
            return (_utils._rebuild_parameter,
                    (wrap(obj._data), obj.requires_grad, OrderedDict()))
        if isinstance(obj, Tensor):
            warn_if_has_hooks(obj)
            storage, offset, stride = self._storage_of(obj._data)
            return (_utils._rebuild_tensor_v2,
                    (storage, offset, tuple(obj.shape), stride, obj.requires_grad,
                     OrderedDict()))
        return NotImplemented

    def persistent_id(self, obj: Any) -> tuple | None:
        if isinstance(obj, _Storage):
            kind = _STORAGE_TYPE_OF[_dtype.from_numpy_dtype(obj.array.dtype)]
            return ("storage", kind, obj.key, "cpu", obj.array.size)
        return None

    def save_global(self, obj: Any, name: str | None = None) -> None:
        torch_name = _TORCH_NAMES.get(id(obj))
        if torch_name is None:
            super().save_global(obj, name)
            return
        module, name = torch_name
        self.write(pickle.GLOBAL + f"{module}\n{name}\n".encode())
        self.memoize(obj)

    def _storage_of(self, data: np.ndarray) -> tuple[_Storage, int, tuple[int, ...]]:
        """The storage ``data`` views, its offset in it and its strides, in elements.

        NumPy's storage is the array at the end of the chain of ``.base`` arrays. It is
        written whole when it is one block of the same dtype (any order of dimensions);
        otherwise, and for an empty tensor, this tensor gets a contiguous copy of its own.
        """
        owner = data
        while isinstance(owner.base, np.ndarray):
            owner = owner.base
        itemsize = data.itemsize
        shared = (data.size > 0 and owner.dtype == data.dtype
                  and (owner.flags.c_contiguous or owner.flags.f_contiguous)
                  and all(step % itemsize == 0 and step >= 0 for step in data.strides))
        if shared:
            start = owner.__array_interface__["data"][0]
            offset = (data.__array_interface__["data"][0] - start) // itemsize
            memory = owner.ravel(order="K")  # the elements in the order they are in memory
        else:
            owner = memory = np.ascontiguousarray(data).reshape(-1)
            offset = 0
            data = memory.reshape(data.shape)
        if id(owner) not in self.storages:
            self.storages[id(owner)] = _Storage(str(len(self.storages)), memory)
        return (self.storages[id(owner)], offset,
                tuple(step // itemsize for step in data.strides))


# The pickle protocol ``save`` writes with unless told otherwise: 2, which every Python 3
# reads. Libraries import it to pass on (Torch-Pruning does, as it loads).
DEFAULT_PROTOCOL = 2


def save(obj: Any, f: FileLike, pickle_module: Any = None,
         pickle_protocol: int = DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization: bool = True) -> None:
    """Write ``obj`` to a path or a binary file object, in PyTorch's zip format.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.save.html>
    """
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a "
                             "'write' attribute")
    if isinstance(f, (str, os.PathLike)):
        parent = os.path.dirname(os.fspath(f))
        if parent and not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("minitorch_hooks writes only the zip format of torch.save "
                                  "(the default since PyTorch 1.6)")
    pickled = io.BytesIO()
    pickler = _Pickler(pickled)
    pickler.dump(obj)
    records = [("data.pkl", pickled.getvalue()), (".format_version", b"1"),
               (".storage_alignment", str(_ALIGNMENT).encode()), ("byteorder", b"little")]
    records += [(f"data/{s.key}", s.array.astype(s.array.dtype.newbyteorder("<")).tobytes())
                for s in pickler.storages.values()]
    records += [("version", b"3\n"),
                (".data/serialization_id", f"{zlib.crc32(pickled.getvalue()):040d}".encode())]
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as file:
            _write_zip(file, records)
    else:
        _write_zip(f, records)


def _write_zip(file: IO[bytes], records: list[tuple[str, bytes]]) -> None:
    """The records, stored uncompressed, each one's bytes starting on a 64-byte boundary
    (padding goes in the local header's extra field, as PyTorch puts it)."""
    with zipfile.ZipFile(file, "w", zipfile.ZIP_STORED) as archive:
        for name, data in records:
            info = zipfile.ZipInfo(f"archive/{name}", date_time=(1980, 1, 1, 0, 0, 0))
            header = 30 + len(info.filename) + 4  # the fixed header, the name, the extra's own
            padding = -(archive.fp.tell() + header) % _ALIGNMENT
            info.extra = b"FB" + padding.to_bytes(2, "little") + b"Z" * padding
            archive.writestr(info, data)


# == loading ====================================================================================
def load(f: FileLike, map_location: Any = None, pickle_module: Any = None, *,
         weights_only: bool | None = None, mmap: bool | None = None,
         **pickle_load_args: Any) -> Any:
    """Read what ``save`` (here or in PyTorch) wrote. Weights-only unless ``weights_only=False``.

    Everything is read and checked before anything is returned, so a bad file raises and
    leaves no half-loaded object behind: ``model.load_state_dict(torch.load(path))`` either
    loads all of it or does not start.
    See <https://docs.pytorch.org/docs/2.13/generated/torch.load.html>
    """
    weights_only = _weights_only_from_environment(weights_only, pickle_module)
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is "
                           "specified")
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    if mmap:
        raise NotImplementedError("minitorch_hooks does not memory-map checkpoints: it reads "
                                  "them into memory")
    _check_map_location(map_location)
    pickle_load_args.setdefault("encoding", "utf-8")
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            blob = file.read()
    else:
        blob = f.read()
    if not blob:
        raise EOFError("" if weights_only else "Ran out of input")
    if not blob.startswith(_ZIP_MAGIC):
        _refuse_legacy(blob, weights_only, pickle_module or pickle, pickle_load_args)
    try:
        archive = zipfile.ZipFile(io.BytesIO(blob))
        records = {name.split("/", 1)[-1]: archive.read(name) for name in archive.namelist()}
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise RuntimeError(
            "PytorchStreamReader failed reading zip archive: the file is not a complete "
            f"checkpoint ({error}). It may be truncated or corrupted, or not written by "
            "torch.save; minitorch_hooks reads only torch.save's zip format.") from None
    if "data.pkl" not in records:
        raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
    try:
        return _unpickle(records, weights_only, pickle_module or pickle, pickle_load_args)
    except pickle.UnpicklingError as error:
        if not weights_only:
            raise
        raise pickle.UnpicklingError(_weights_only_message(str(error))) from None


_ZIP_MAGIC = b"PK\x03\x04"  # how PyTorch tells its zip format from the legacy one
_LEGACY_MAGIC_NUMBER = 0x1950A86A20F9469CFC6C


def _refuse_legacy(blob: bytes, weights_only: bool, pickle_module: Any,
                   pickle_load_args: dict[str, Any]) -> None:
    """A file that is not a zip archive is, to PyTorch, the legacy format: a pickled magic
    number, then more pickles. PyTorch reads the first pickle as it would read the whole
    file, weights-only or not, so a plain pickle of a later protocol (or any other file) is
    refused by the weights-only unpickler's rules, with their ``UnpicklingError``; a pickle
    of anything but the magic number is "corrupt". A genuine legacy file is left out."""
    file = io.BytesIO(blob)
    if weights_only:
        try:
            magic_number = WeightsOnlyUnpickler(file, _no_persistent_ids,
                                                **pickle_load_args).load()
        except pickle.UnpicklingError as error:
            raise pickle.UnpicklingError(_weights_only_message(str(error))) from None
    else:
        magic_number = pickle_module.load(file, **pickle_load_args)
    if magic_number != _LEGACY_MAGIC_NUMBER:
        raise RuntimeError("Invalid magic number; corrupt file?")
    raise NotImplementedError("minitorch_hooks reads only the zip format of torch.save, not "
                              "the legacy format of PyTorch before 1.6")


def _no_persistent_ids(saved_id: Any) -> None:
    raise pickle.UnpicklingError("unsupported persistent id encountered")


def _weights_only_from_environment(weights_only: bool | None, pickle_module: Any) -> bool:
    """``weights_only``, unless an environment variable overrides it, as PyTorch lets one:
    ``TORCH_FORCE_WEIGHTS_ONLY_LOAD`` always, ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD`` only
    where the caller did not choose (for old code that cannot be changed)."""
    not_set = weights_only is None
    if not_set:
        weights_only = pickle_module is None
    force, force_not = (os.getenv(name, "0").lower() in ("1", "y", "yes", "true")
                        for name in ("TORCH_FORCE_WEIGHTS_ONLY_LOAD",
                                     "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"))
    if force and force_not:
        raise RuntimeError("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or "
                           "`TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` should be set, but both were set.")
    if force:
        return True
    if force_not and not_set:
        warnings.warn("Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since "
                      "the`weights_only` argument was not explicitly passed to `torch.load`, "
                      "forcing weights_only=False.", UserWarning, stacklevel=3)
        return False
    return weights_only


def _check_map_location(map_location: Any) -> None:
    """Everything lives on the CPU here, so a ``map_location`` can only ask for it. Asking
    for CUDA fails with the error of a PyTorch without it."""
    if map_location is None or callable(map_location) or isinstance(map_location, dict):
        return
    if str(map_location).partition(":")[0] == "cuda":
        raise RuntimeError(_NO_CUDA_TO_LOAD_ON)
    if str(map_location) != "cpu":
        raise RuntimeError(f"minitorch_hooks runs on the CPU only, not on '{map_location}'")


_NO_CUDA_TO_LOAD_ON = (
    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
    "If you are running on a CPU-only machine, please use torch.load with "
    "map_location=torch.device('cpu') to map your storages to the CPU.")


def _unpickle(records: dict[str, bytes], weights_only: bool, pickle_module: Any,
              pickle_load_args: dict[str, Any]) -> Any:
    little = records.get("byteorder", b"little") == b"little"
    storages: dict[str, np.ndarray] = {}

    def persistent_load(saved_id: Any) -> np.ndarray:
        if not (isinstance(saved_id, tuple) and len(saved_id) == 5 and saved_id[0] == "storage"
                and isinstance(saved_id[1], StorageType)):
            raise pickle.UnpicklingError("unsupported persistent id encountered")
        _, kind, key, location, numel = saved_id
        if key not in storages:
            numpy_type = kind.dtype.numpy_type.newbyteorder("<" if little else ">")
            raw = records.get(f"data/{key}")
            if raw is None or len(raw) != numel * numpy_type.itemsize:
                raise RuntimeError(f"checkpoint storage {key!r} is missing or has the wrong "
                                   f"size for {numel} elements: the file is corrupted")
            storages[key] = np.frombuffer(raw, numpy_type).astype(kind.dtype.numpy_type)
        return storages[key]

    file = io.BytesIO(records["data.pkl"])
    if weights_only:
        return WeightsOnlyUnpickler(file, persistent_load, **pickle_load_args).load()
    return _full_unpickler(pickle_module, persistent_load)(file, **pickle_load_args).load()


def _full_unpickler(pickle_module: Any, persistent_load: Any) -> type:
    """An unpickler of ``pickle_module`` that reads a ``torch.`` name as this library's: a
    storage type, a rebuild function, or the class of the same name
    (``torch.nn.modules.linear.Linear``). It imports whatever else the file names."""
    by_torch_name = _torch_named_objects()

    class Unpickler(pickle_module.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if f"{module}.{name}" in by_torch_name:
                return by_torch_name[f"{module}.{name}"]
            if module == "torch" or module.startswith("torch."):
                ours = importlib.import_module("minitorch_hooks" + module[len("torch"):])
                return getattr(ours, name)
            return super().find_class(module, name)

    Unpickler.persistent_load = staticmethod(persistent_load)  # type: ignore[assignment]
    return Unpickler


def _weights_only_message(message: str) -> str:
    """PyTorch's wrapping of a refusal: how to load the file anyway, and at what risk."""
    if "was not an allowed global by default" in message:
        return ("Weights only load failed. This file can still be loaded, to do so you have two "
                "options, \033[1mdo those steps only if you trust the source of the "
                f"checkpoint\033[0m. \n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load "
                "with `weights_only=True` please check the recommended steps in the following "
                "error message.\n\tWeightsUnpickler error: " + message + _DOCS_MESSAGE)
    text = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
    if "is blocked" not in message:
        text += ("Please file an issue with the following so that we can make "
                 "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
    return text + "\n\n" + message + _DOCS_MESSAGE
