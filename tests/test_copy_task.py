"""The in-context copying curriculum (kg2tool/train/copy_task.py): batches, pools, warm-up inside `kg2tool pretrain`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from kg2tool.train.copy_task import CopyTask, argument_strings, copy_accuracy, name_token_pool  # noqa: E402


def test_batches_show_each_segment_twice_with_labels_on_the_second_only():
    task = CopyTask(list(range(100, 140)), segment_length=6, seed=3)
    ids, labels = task.batch(5)
    assert ids.shape == labels.shape == (5, 12)
    assert torch.equal(ids[:, :6], ids[:, 6:])
    assert (labels[:, :6] == -100).all() and torch.equal(labels[:, 6:], ids[:, 6:])
    assert ((ids >= 100) & (ids < 140)).all()
    # same seed, same stream; the stream moves on between calls
    again = CopyTask(list(range(100, 140)), segment_length=6, seed=3)
    assert torch.equal(again.batch(5)[0], ids)
    assert not torch.equal(task.batch(5)[0], ids)


def test_varied_batches_hide_a_segment_at_a_random_place_and_label_its_repeat():
    task = CopyTask(list(range(100, 140)), segment_length=6, seed=3, layout="varied")
    ids, labels = task.batch(40)
    assert ids.shape == labels.shape == (40, 18)
    sizes, places = set(), set()
    for row, lab in zip(ids.tolist(), labels.tolist()):
        marked = [i for i, x in enumerate(lab) if x != -100]
        assert marked == list(range(marked[0], marked[-1] + 1)) and len(marked) >= 2
        size = len(marked) + 1  # the repeat's first id is not labelled
        again = marked[0] - 1
        segment = row[again : again + size]
        assert any(row[s : s + size] == segment for s in range(0, again - size + 1))  # shown before, whole
        assert [lab[i] for i in marked] == row[marked[0] : marked[-1] + 1]
        sizes.add(size)
        places.add(again)
    assert len(sizes) > 2 and len(places) > 3  # no fixed offset to learn instead of the tokens
    assert torch.equal(CopyTask(list(range(100, 140)), 6, seed=3, layout="varied").batch(40)[0], ids)
    with pytest.raises(ValueError, match="layout"):
        CopyTask([1, 2, 3], layout="shuffled")


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="pool"):
        CopyTask([5])
    with pytest.raises(ValueError, match="segment length"):
        CopyTask([1, 2, 3], segment_length=1)


def test_argument_strings_read_json_and_dict_arguments():
    rows = [
        {
            "messages": [
                {"role": "user", "content": "q"},
                {
                    "role": "assistant",
                    "tool_calls": [
                        {"function": {"name": "f", "arguments": json.dumps({"entity": "Ada Lovelace"})}},
                        {"function": {"name": "g", "arguments": {"sets": [["Milan", "Rome"]], "n": 3}}},
                    ],
                },
            ]
        },
        {"messages": json.dumps([{"role": "assistant", "tool_calls": [{"name": "h", "arguments": {"x": "Bo"}}]}])},
    ]
    assert argument_strings(rows) == ["Ada Lovelace", "Milan", "Rome", "Bo"]


def test_name_token_pool_leaves_out_special_tokens():
    from kg2tool.train.tokenizer import TokenizerConfig, train_tokenizer

    names = ["Ada Lovelace", "Charles Babbage", "Grace Hopper"]
    tok = train_tokenizer(["Ada Lovelace met Charles Babbage."] * 20, names, TokenizerConfig(vocab_size=300))
    pool = name_token_pool(tok, names + ["<|im_end|>"])
    assert pool == sorted(pool) and len(pool) >= 3
    assert not set(pool) & set(tok.all_special_ids)


def test_pretrain_copy_warmup_runs_logs_its_curve_and_the_aux_loss(tmp_path):
    """The mechanics, in a few steps (the learning itself is the slow test below): the warm-up's curve is in the
    report, the auxiliary copy loss is logged during the corpus steps, and the saved model reloads."""
    from test_pretrain import run, tiny_args

    argv = tiny_args(tmp_path, "copy", copy_warmup_steps=10, copy_aux_weight=1.0, copy_segment_length=8,
                     max_steps=10, save_steps=10, logging_steps=5)  # fmt: skip
    report = run(argv)
    assert [h["step"] for h in report["copy_warmup"]][-1] == 10
    assert 0.0 <= report["copy_accuracy"] <= 1.0 and report["data"]["copy_pool_size"] > 10
    state = json.loads((Path(tmp_path) / "copy" / "checkpoint-10" / "trainer_state.json").read_text())
    logged = [h for h in state["log_history"] if "copy_loss" in h]
    assert len(logged) == 2 and all(h["copy_loss"] > 0 for h in logged)
    from transformers import AutoModelForCausalLM

    pool = json.loads((Path(tmp_path) / "copy" / "prepared" / "copy_pool.json").read_text())
    model = AutoModelForCausalLM.from_pretrained(tmp_path / "copy")
    assert 0.0 <= copy_accuracy(model, CopyTask(pool, 8, seed=0)) <= 1.0


@pytest.mark.slow  # ~5 min on 2 cores: `pytest -m slow tests/test_copy_task.py`
def test_pretrain_copy_warmup_forms_copying_and_aux_loss_is_logged(tmp_path):
    """A copy warm-up inside `kg2tool pretrain` takes a fresh model from chance to copying random segments; the
    auxiliary copy loss is added and logged during the corpus steps; the report carries the warm-up curve."""
    from test_pretrain import run, tiny_args

    argv = tiny_args(
        tmp_path,
        "copy",
        model_preset="tiny-dense",
        model_overrides=json.dumps({"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2,
                                    "num_key_value_heads": 2}),
        copy_warmup_steps=150,
        copy_aux_weight=1.0,
        copy_segment_length=8,
        max_steps=150,  # --max_steps bounds the warm-up too (test_pretrain.py): here it leaves all 150 steps
        save_steps=150,
        logging_steps=25,
    )
    report = run(argv)
    curve = report["copy_warmup"]
    assert [h["step"] for h in curve][-1] == 150
    assert curve[0]["copy_accuracy"] < 0.5 and curve[-1]["copy_accuracy"] > 0.9
    assert report["copy_accuracy"] > 0.9  # still copies after the corpus steps
    assert report["data"]["copy_pool_size"] > 10
    state = json.loads((Path(tmp_path) / "copy" / "checkpoint-150" / "trainer_state.json").read_text())
    logged = [h for h in state["log_history"] if "copy_loss" in h]
    assert logged and all(h["copy_loss"] < 1.0 for h in logged)
    # the saved model copies too, reloaded the ordinary way
    from transformers import AutoModelForCausalLM

    pool = json.loads((Path(tmp_path) / "copy" / "prepared" / "copy_pool.json").read_text())
    model = AutoModelForCausalLM.from_pretrained(tmp_path / "copy")
    assert copy_accuracy(model, CopyTask(pool, 8, seed=0)) > 0.9


def test_copy_settings_are_validated(tmp_path):
    from test_pretrain import run, tiny_args

    from kg2tool.common.errors import UsageError

    with pytest.raises(UsageError, match="copy_segment_length"):
        run(tiny_args(tmp_path, "bad", copy_warmup_steps=5, copy_segment_length=1))
