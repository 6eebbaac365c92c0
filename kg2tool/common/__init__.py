"""Shared by every stage and importing none of them: errors and exit codes, atomic files, YAML."""
