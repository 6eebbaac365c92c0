"""The bulk-load process of the triple store: `python -m kg2tool.graph.store STORE_DIR RESULT_JSON GRAPH...`."""

import sys

from .triples import bulk_load

if __name__ == "__main__":
    bulk_load(sys.argv[1], sys.argv[3:], sys.argv[2])
