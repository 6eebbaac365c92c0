"""Checks on generated rows: verification by execution, DPO preference pairs, diversity filters, anchors no question names."""
