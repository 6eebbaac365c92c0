#!/bin/sh
# Install BFCL's official checker (PyPI bfcl-eval) into the active environment, for the AST agreement test and
# bench only: kg2tool never imports it at runtime. bfcl-eval itself goes in without its dependencies (they include
# sentence-transformers, hence torch); the packages below are exactly what the import chain of
# bfcl_eval.eval_checker.ast_eval.ast_checker and bfcl_eval.utils needs (it imports every model handler's SDK),
# found by trying the import. Pins follow bfcl-eval's own where a newer release breaks the import.
set -eu
python -m pip install -q --no-deps "bfcl-eval==2026.3.23"
# pip's resolver then lists bfcl-eval's own (uninstalled, on purpose) dependencies as conflicts in an "ERROR"
# block: expected, so its output goes to a log that is printed only when the install itself fails.
log=$(mktemp)
if ! python -m pip install "tree_sitter==0.21.3" "tree-sitter-java==0.21.0" "tree-sitter-javascript==0.21.4" \
    "mistralai==1.7.0" "cohere==5.18.0" anthropic openai google-genai boto3 writer-sdk qwen-agent soundfile \
    datamodel-code-generator tenacity overrides >"$log" 2>&1; then
    cat "$log"
    rm -f "$log"
    exit 1
fi
rm -f "$log"
python -c "import bfcl_eval.eval_checker.ast_eval.ast_checker, bfcl_eval.utils; print(\"bfcl-eval checker importable\")"
