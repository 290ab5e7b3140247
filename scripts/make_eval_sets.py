"""Write the frozen evaluation sets of the versioned ids (``lifearena/rl/eval_sets/*.json``)
and print each file's sha256 for ``lifearena.rl.eval_sets.SHA256`` and ``docs/rl.md``.

The sets are frozen: run this only for a new id (``--ids``), never to remake an existing
set (that would change every published figure on it; make a new version of the id instead)::

    python scripts/make_eval_sets.py --starts 100 --seed 0 --ids lifearena/losat-9x11-v1
"""

from __future__ import annotations

import argparse
from pathlib import Path

from lifearena.rl.eval_sets import dumps, file_name, make_starts, sha256_of
from lifearena.rl.versions import SPECS, spec

OUT = Path(__file__).resolve().parents[1] / "src" / "lifearena" / "rl" / "eval_sets"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=100, help="starts per set (each is "
                        "played from both seats)")
    parser.add_argument("--seed", type=int, default=0, help="master seed of the starts")
    parser.add_argument("--ids", nargs="*", default=None,
                        help="ids to write (default: every -v1 id)")
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write into")
    args = parser.parse_args()
    ids = args.ids or [s.id for s in SPECS]
    made_by = f"scripts/make_eval_sets.py --starts {args.starts} --seed {args.seed}"
    for env_id in ids:
        fixed = spec(env_id)
        text = dumps(fixed, make_starts(fixed, args.starts, args.seed), made_by)
        path = args.out / file_name(fixed.id)
        path.write_text(text, encoding="utf-8")
        print(f'    "{path.name}": "{sha256_of(text)}",')


if __name__ == "__main__":
    main()
