"""Seeing the hooks fire: ``minitorch_hooks.hook_trace`` records every hook call in a block.

* ``tracer.py``: ``hook_trace`` and ``Trace``, the recording itself;
* ``kinds.py``: every kind of hook, its phase, and what it receives;
* ``events.py``: one recorded call; ``naming.py``: how owners are named;
* ``dispatch.py``, ``registration.py``: the two ways of watching (our own hooks at their
  dispatch; real PyTorch's by wrapping them at registration), ``watched.py`` the wrapper;
* ``text.py``, ``mermaid.py``, ``svg.py``: the timeline as text, diagram and drawing.
"""

from .events import HookEvent
from .tracer import Trace, hook_trace
