"""Run the language set (this folder's ``cases.jsonl``) with the content set's runner,
``../content/run.py``: the same public-API runner and scripted judge, and the same options.

    python run.py [--judge rules|llm|all] [--json] [--only CLASS] [--case ID] [--verbose]
"""

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.argv[1:1] = ["--cases", str(HERE / "cases.jsonl")]
runpy.run_path(str(HERE.parent / "content" / "run.py"), run_name="__main__")
