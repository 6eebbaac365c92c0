import pytest
from jsonschema import Draft202012Validator

from kg2tool.common.errors import NothingToDoError
from kg2tool.synth.tools.toolset import NAME_RE, ToolError, ToolSet


@pytest.fixture(scope="module")
def ts(small_kg):
    return ToolSet.from_graph(small_kg)


def test_every_schema_is_valid_openai_format(ts, example_kg):
    for toolset in (ts, ToolSet.from_graph(example_kg)):
        names = [s["function"]["name"] for s in toolset.schemas()]
        assert len(names) == len(set(names))
        for schema in toolset.schemas():
            assert schema["type"] == "function"
            fn = schema["function"]
            assert NAME_RE.match(fn["name"]) and fn["description"]
            params = fn["parameters"]
            Draft202012Validator.check_schema(params)
            assert params["type"] == "object" and params["additionalProperties"] is False
            assert set(params["required"]) <= set(params["properties"])


def test_forward_inverse_and_typed_getters(ts, small_kg):
    kg = small_kg
    assert ts.execute("get_place_of_birth", {"entity": "Person 3"}) == ["City 3"]
    born_in_city3 = ts.execute("find_by_place_of_birth", {"value": "City 3"})
    assert "Person 3" in born_in_city3 and born_in_city3 == sorted(born_in_city3)
    assert ts.execute("get_population", {"entity": "City 2"}) == 3014
    assert ts.execute("get_inception", {"entity": "City 1"}) == "1813-02-11"
    assert ts.execute("get_height", {"entity": "Person 0"}) == 150.5
    # a label made of template / HTML / SQL syntax is just a name
    odd = kg.names[kg.resolve("{{ 7*7 }} <b>Robert'); DROP TABLE--</b>")]
    assert ts.execute("get_place_of_birth", {"entity": odd}) == ["City 7"]
    # prepositional label: "cast member of"
    assert "get_cast_member_of" in ts.specs
    # enums where the graph has few values; date format where the graph has dates
    country = ts.specs["find_by_country"].parameters["properties"]["value"]
    assert country["enum"] == ["Atlantis", "Borduria", "Carpania"]


def test_operators(ts):
    assert ts.execute("intersection", {"sets": [["a", "b", "c"], ["c", "b", "d"]]}) == ["b", "c"]
    assert ts.execute("union", {"sets": [["b"], ["a"]]}) == ["a", "b"]
    assert ts.execute("difference", {"include": ["a", "b"], "exclude": ["b"]}) == ["a"]
    assert ts.execute("count", {"items": ["a", "b", "a"]}) == 2
    items = [{"name": "x", "value": 3}, {"name": "y", "value": 5}]
    assert ts.execute("compare", {"items": items, "mode": "max"}) == "y"
    assert ts.execute("compare", {"items": items, "mode": "min"}) == "x"
    dates = [{"name": "x", "value": "1990-01-02"}, {"name": "y", "value": "1989-05-01"}]
    assert ts.execute("compare", {"items": dates, "mode": "min"}) == "y"


@pytest.mark.parametrize(
    "name,args,kind",
    [
        ("get_place_of_birth", {"entity": "Nobody Known"}, "unknown_entity"),
        ("get_place_of_birth", {"entity": 3}, "schema"),
        ("get_place_of_birth", {}, "schema"),
        ("get_place_of_birth", {"entity": "Person 1", "extra": 1}, "schema"),
        ("find_by_country", {"value": "Narnia"}, "schema"),
        ("no_such_tool", {}, "unknown_tool"),
        ("intersection", {"sets": [["a"]]}, "schema"),
        ("compare", {"items": [{"name": "a", "value": "soon"}, {"name": "b", "value": "2020-01-01"}], "mode": "max"}, "schema"),
        ("compare", {"items": [{"name": "a", "value": 1}, {"name": "b", "value": 1}], "mode": "max"}, "tie"),
    ],
)
def test_errors_name_the_problem(ts, name, args, kind):
    with pytest.raises(ToolError) as err:
        ts.execute(name, args)
    assert err.value.kind == kind and str(err.value)


def test_min_support_error_says_what_is_missing(small_kg):
    with pytest.raises(NothingToDoError, match="no relation or attribute has at least 1000 facts"):
        ToolSet.from_graph(small_kg, min_support=1000)


def test_a_graph_whose_links_are_all_blank_nodes_says_so(tmp_path):
    """Facts behind blank nodes only (a builder `[ ex:name "..." ]`, read as the organ's value): the error says there
    is no relation between named entities, what became of the blank nodes, and what to do."""
    from kg2tool.graph.build import load_graph

    path = tmp_path / "blank.ttl"
    path.write_text(
        "@prefix ex: <http://ex.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        + "".join(f'ex:organ{k} rdfs:label "Organ {k}" ; ex:year {1900 + k} ; ex:builder [ ex:name "Builder {k}" ] .\n' for k in range(5)),
        encoding="utf-8",
    )
    with pytest.raises(NothingToDoError, match=r"no relation between named entities .* 0 blank nodes were named .*, 5 read as values"):
        ToolSet.from_graph(load_graph([path]))


def test_fast_items_validator_agrees_with_jsonschema():
    from kg2tool.synth.tools.toolset import CallValidator, operator_schemas

    schema = operator_schemas()["intersection"]["function"]["parameters"]
    fast, ref = CallValidator(schema), Draft202012Validator(schema)
    cases = [
        {"sets": [["a", "b"], ["c"]]},
        {"sets": [["a", 3], ["c", None]]},
        {"sets": [["a"], "b"]},
        {"sets": [["a"]]},
        {"sets": "x"},
        {"sets": [["a"], ["b"]], "extra": 1},
        {},
    ]
    for case in cases:
        got = sorted((list(e.absolute_path), e.message) for e in fast.iter_errors(case))
        want = sorted((list(e.absolute_path), e.message) for e in ref.iter_errors(case))
        assert got == want, case


def test_unknown_name_error_offers_the_closest_names(ts):
    with pytest.raises(ToolError) as err:
        ts.execute("get_place_of_birth", {"entity": "Persn 12"})
    assert err.value.kind == "unknown_entity" and "Person 12" in err.value.suggestions
    assert "closest names: " in str(err.value) and "'Person 12'" in str(err.value)
    with pytest.raises(ToolError) as err:  # nothing close: no suggestion, and the message says only what failed
        ts.execute("get_place_of_birth", {"entity": "Zzyzx Qwv"})
    assert err.value.suggestions == () and "closest" not in str(err.value)


def _homonym_graph(tmp_path):
    from kg2tool.graph.build import load_graph

    ttl = ["@prefix ex: <http://ex.org/> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    ttl += ['ex:paris_fr rdfs:label "Paris" . ex:paris_tx rdfs:label "Paris" . ex:paris_p rdfs:label "Paris" .']
    for i in range(6):  # people born in the French Paris; Texas' Paris is only a twin town; the person is a person
        ttl.append(f'ex:p{i} rdfs:label "Person {i}" ; ex:bornIn ex:paris_fr ; ex:knows ex:paris_p .')
        ttl.append(f'ex:t{i} rdfs:label "Town {i}" ; ex:twin ex:paris_tx ; ex:twin ex:paris_fr .')
    path = tmp_path / "homonyms.ttl"
    path.write_text("\n".join(ttl), encoding="utf-8")
    return load_graph([path])


def test_a_shared_name_resolves_within_the_tools_domain_or_fails_listing_the_candidates(tmp_path):
    kg = _homonym_graph(tmp_path)
    ts = ToolSet.from_graph(kg, min_support=1)
    # "Paris" is a display name of none of them; only one Paris is anyone's birthplace (validate=False: in this
    # small graph the schema's enum would refuse the label before the executor sees it; a large range has none)
    assert "Paris" not in kg.names
    assert ts.execute("find_by_bornin", {"value": "Paris"}, validate=False) == [f"Person {i}" for i in range(6)]
    # two Parises are twin towns: the name fits both, so the executor says so instead of picking one
    with pytest.raises(ToolError) as err:
        ts.execute("find_by_twin", {"value": "Paris"}, validate=False)
    assert err.value.kind == "ambiguous" and len(err.value.suggestions) == 2
    assert all(name in str(err.value) for name in err.value.suggestions)
    # a display name is never ambiguous
    assert ts.execute("find_by_twin", {"value": err.value.suggestions[0]}) == [f"Town {i}" for i in range(6)]
