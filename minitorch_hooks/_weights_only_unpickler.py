"""The unpickler behind ``torch.load(weights_only=True)``: a pickle that may only build data.

A pickle is a small program. Its ``GLOBAL`` instruction imports any name (``os.system``)
and ``REDUCE`` calls it with arguments from the file, so loading an untrusted pickle runs
whatever its author chose; that is how a class's ``__reduce__`` is turned into an exploit.
PyTorch 2.6 made ``weights_only=True`` the default: the names a checkpoint may import are an
allow-list (tensors' rebuild functions, storage types, dtypes, ``OrderedDict``, ``Counter``
and a few builtins), and a name outside it is refused *when it is read*, before anything is
called.
``BUILD`` (setting an object's attributes from the file) is allowed on ``OrderedDict`` (a
state dict's ``_metadata``) and on the classes a user allow-lists.

PyTorch writes its own interpreter of the pickle instructions; this one reuses Python's
and replaces the two instructions that reach code: ``find_class`` (behind ``GLOBAL`` and
``STACK_GLOBAL``) and ``BUILD``. It knows only the instructions PyTorch's knows (those of
pickle protocol 2, which ``torch.save`` writes): any other is refused as an "Unsupported
operand", which is what PyTorch says of a plain pickle of a later protocol (its ``FRAME``
instruction). The refusals' messages are PyTorch's.
See <https://docs.pytorch.org/docs/2.13/notes/serialization.html#weights-only>
"""

from __future__ import annotations

import _compat_pickle
import pickle
import warnings
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# Modules whose names are refused outright, with their own message: nothing in them is data.
_BLOCKLISTED_MODULES = ("sys", "os", "posix", "nt")

# Classes and functions the user allowed with ``add_safe_globals``.
_user_safe_globals: list[Any] = []


def _allowed_globals() -> dict[str, Any]:
    """Every name a weights-only checkpoint may use, by PyTorch's full name."""
    from codecs import encode

    from .nn.parameter import Parameter
    from .serialization import _torch_named_objects

    return {"collections.OrderedDict": OrderedDict,
            "collections.Counter": Counter,
            "torch.nn.parameter.Parameter": Parameter,
            "_codecs.encode": encode,  # how protocol 2 writes bytes
            "builtins.bytearray": bytearray,
            "builtins.set": set,
            "builtins.complex": complex,
            **_torch_named_objects()}


def _user_allowed_globals() -> dict[str, Any]:
    allowed = {}
    for entry in _user_safe_globals:
        obj, name = entry if isinstance(entry, tuple) else (
            entry, f"{entry.__module__}.{entry.__qualname__}")
        allowed[name] = obj
    return allowed


def add_safe_globals(safe_globals: list[Any]) -> None:
    """Allow more names in weights-only loads: classes or functions, or ``(obj, "full.name")``
    for one saved under another name. Only for code you trust: it will be called.
    See <https://docs.pytorch.org/docs/2.13/notes/serialization.html#torch.serialization.add_safe_globals>
    """
    _user_safe_globals.extend(safe_globals)


def get_safe_globals() -> list[Any]:
    """What ``add_safe_globals`` allowed so far."""
    return list(_user_safe_globals)


def clear_safe_globals() -> None:
    """Forget everything ``add_safe_globals`` allowed."""
    _user_safe_globals.clear()


@contextmanager
def safe_globals(extra: list[Any]) -> Iterator[None]:
    """``add_safe_globals`` for the duration of a ``with`` block."""
    _user_safe_globals.extend(extra)
    try:
        yield
    finally:
        for entry in extra:
            _user_safe_globals.remove(entry)


# The instructions PyTorch's weights-only unpickler interprets (``_weights_only_unpickler.py``).
_PYTORCHS_INSTRUCTIONS = (
    pickle.GLOBAL, pickle.NEWOBJ, pickle.REDUCE, pickle.BUILD, pickle.APPEND, pickle.APPENDS,
    pickle.SETITEM, pickle.SETITEMS, pickle.MARK, pickle.TUPLE, pickle.TUPLE1, pickle.TUPLE2,
    pickle.TUPLE3, pickle.NONE, pickle.NEWFALSE, pickle.NEWTRUE, pickle.EMPTY_TUPLE,
    pickle.EMPTY_LIST, pickle.EMPTY_DICT, pickle.EMPTY_SET, pickle.BININT, pickle.BININT1,
    pickle.BININT2, pickle.BINFLOAT, pickle.BINUNICODE, pickle.SHORT_BINSTRING,
    pickle.BINPERSID, pickle.BINGET, pickle.LONG_BINGET, pickle.BINPUT, pickle.LONG_BINPUT,
    pickle.LONG1, pickle.PROTO, pickle.STOP)


class _Instructions(dict):
    """Python's table of pickle instructions, cut down to PyTorch's: an instruction
    missing from it is refused with PyTorch's message."""

    def __missing__(self, opcode: int) -> Callable:
        raise pickle.UnpicklingError(f"Unsupported operand {opcode}")


class Unpickler(pickle._Unpickler):  # the Python one: its instructions can be replaced
    """Python's unpickler, with imports checked against the allow-list and ``BUILD``
    limited to ``OrderedDict`` and allow-listed classes."""

    def __init__(self, file: Any, persistent_load: Callable[[Any], Any],
                 **pickle_load_args: Any) -> None:
        super().__init__(file, **pickle_load_args)
        self.persistent_load = persistent_load
        self.dispatch = _Instructions({op[0]: pickle._Unpickler.dispatch[op[0]]
                                       for op in _PYTORCHS_INSTRUCTIONS})
        self.dispatch[pickle.BUILD[0]] = Unpickler._build
        self.dispatch[pickle.PROTO[0]] = Unpickler._proto

    def _proto(self) -> None:
        pickle._Unpickler.load_proto(self)
        if self.proto != 2:
            warnings.warn(
                f"Detected pickle protocol {self.proto} in the checkpoint, which was not the "
                "default pickle protocol used by `torch.load` (2). The weights_only Unpickler "
                "might not support all instructions implemented by this protocol, please file "
                "an issue for adding support if you encounter this.", stacklevel=2)

    def find_class(self, module: str, name: str) -> Any:
        if self.proto < 3 and self.fix_imports:  # protocol 2 writes Python 2's names
            module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
            module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        full_path = f"{module}.{name}"
        if module in _BLOCKLISTED_MODULES:
            raise pickle.UnpicklingError(
                f"Trying to load unsupported GLOBAL {full_path} whose module {module} is "
                "blocked.")
        for table in (_allowed_globals(), _user_allowed_globals()):
            if full_path in table:
                return table[full_path]
        if module == "builtins":  # PyTorch names a builtin without its module
            full_path = name
        raise pickle.UnpicklingError(
            f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. "
            f"Please use `torch.serialization.add_safe_globals([{full_path}])` or the "
            f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist "
            "this global if you trust this class/function.")

    def _build(self) -> None:
        state = self.stack.pop()
        inst = self.stack[-1]
        if type(inst) is OrderedDict:
            inst.__dict__.update(state)
        elif type(inst) in _user_allowed_globals().values():
            self.stack.append(state)
            pickle._Unpickler.load_build(self)
        else:
            raise pickle.UnpicklingError(
                "Can only build Tensor, Parameter, OrderedDict or types allowlisted via "
                f"`add_safe_globals`, but got {type(inst)}")
