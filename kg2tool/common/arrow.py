"""Arrow columns straight from Python values, for types pyarrow cannot build from Python objects itself.

`pa.array(values, type)` refuses extension types (datasets' `Json` feature is `arrow.json`, an extension over
strings, alone or as a list's items): `column` builds the storage array and wraps it. The dataset writer uses it to
make its table without `Dataset.from_list`, which parses every JSON string again (twice) to check it: the table,
and so the parquet file, is the same.
"""

from __future__ import annotations


def storage_type(t):
    """The type that holds `t`'s values: an extension type's storage, inside lists too."""
    import pyarrow as pa

    if isinstance(t, pa.BaseExtensionType):
        return t.storage_type
    if pa.types.is_list(t):
        return pa.list_(storage_type(t.value_type))
    return t


def column(values: list, t):
    """An arrow array of type `t` from Python values (strings for an extension type over strings)."""
    import pyarrow as pa

    a = pa.array(values, type=storage_type(t))
    if isinstance(t, pa.BaseExtensionType):
        return pa.ExtensionArray.from_storage(t, a)
    if pa.types.is_list(t) and isinstance(t.value_type, pa.BaseExtensionType):
        items = pa.ExtensionArray.from_storage(t.value_type, a.values)
        return pa.ListArray.from_arrays(a.offsets, items, type=t, mask=a.is_null() if a.null_count else None)
    if storage_type(t) != t:
        raise ValueError(f"arrow type {t} (an extension type deeper than a list's items) is not supported")
    return a
