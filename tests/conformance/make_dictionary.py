"""Make the dictionary that recorded answers are compressed with, from the recordings.

Run once, from the repository's root: ``python tests/conformance/make_dictionary.py``. It
writes ``tests/recordings/answers.zdict`` and prints its SHA-256 for
``recording.DICTIONARY_SHA256``; then every recording is rewritten with it.

A scenario's long answers are compressed on their own line, so that a diff shows which
scenario changed. Alone, a short line cannot reuse what the lines before it said: the
JSON of a tensor, the dtypes, the names of errors and their messages. A preset
dictionary (zlib's ``zdict``) holds those fragments once for every line. It is made of
the 24-byte pieces that occur most often in the answers, the most frequent at its end,
where deflate reaches them with the shortest distances.

The dictionary is made once and never changed: an answer compressed with it reads back
only with the same bytes (the SHA-256 guards them). New answers compress with it too;
they only compress a little less well if their fragments are new.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import recording  # noqa: E402

SIZE = 32 * 1024  # deflate's window: no byte further back can be referred to
PIECE = 24


def make_dictionary(texts: list[bytes]) -> bytes:
    counts: Counter[bytes] = Counter()
    for text in texts:
        counts.update(text[start:start + PIECE] for start in range(0, len(text) - PIECE, 8))
    chosen: list[bytes] = []
    for piece, count in counts.most_common():
        if count < 4 or sum(map(len, chosen)) + len(piece) > SIZE:
            break
        chosen.append(piece)
    return b"".join(reversed(chosen))


def main() -> None:
    texts = []
    for path in sorted(recording.RECORDINGS.rglob("*.jsonl")):
        for line in path.read_text().splitlines():
            answers = recording._unpacked(json.loads(line)[1])
            text = json.dumps(answers, separators=(",", ":"))
            if len(text) > recording.READABLE_CHARACTERS:
                texts.append(text.encode("utf-8"))
    dictionary = make_dictionary(texts)
    recording.DICTIONARY.write_bytes(dictionary)
    print(f"{recording.DICTIONARY}: {len(dictionary)} bytes, "
          f"sha256 {hashlib.sha256(dictionary).hexdigest()}")


if __name__ == "__main__":
    main()
