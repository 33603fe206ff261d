#!/bin/sh
# Runs one hook program on real PyTorch and on minitorch_hooks (installed as torch) and
# diffs what they print.  LIBS: a folder with the libraries installed by
# `pip install --no-deps --target LIBS ...`; TORCH_PY: a Python with torch 2.13;
# MTH_PY: a Python with minitorch_hooks and numpy only.
script=$1
here=$(cd "$(dirname "$0")" && pwd)
LIBS=${LIBS:-/tmp/rp-libs}
TORCH_PY=${TORCH_PY:-/work/venv/bin/python}
MTH_PY=${MTH_PY:-/tmp/rp-venv/bin/python}
PYTHONPATH=$here:$LIBS "$TORCH_PY" "$script" > /tmp/out-torch.txt 2>&1
PYTHONPATH=$here:$LIBS "$MTH_PY" -c "
import sys, runpy, minitorch_hooks
minitorch_hooks.install_as_torch()
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name='__main__')" "$script" > /tmp/out-mth.txt 2>&1
if diff /tmp/out-torch.txt /tmp/out-mth.txt > /tmp/out-diff.txt; then
  echo "SAME: $script"
else
  echo "DIFFERS: $script"; cat /tmp/out-diff.txt | head -${LINES_SHOWN:-40}
fi
