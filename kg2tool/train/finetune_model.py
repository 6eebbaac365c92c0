"""Tokenizer, model and trainer class of the SFT and DPO stages: a local path that is missing fails at once,
tokenizers load as saved (with the chat-template checks assistant-only loss needs), adapter folders load merged
onto their base, LoRA gets default targets, and MoE models get the router losses mixed into the trainer.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..common.errors import InputError, UsageError
from .finetune import RunSetup

# Attention and MLP projection names of Llama/Qwen-style models (qwen2, qwen2_moe's shared expert, llama, mistral).
DEFAULT_LORA_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
GENERATION_MARKER = "generation %}"


def looks_local(path: str) -> bool:
    """True when `path` names a folder on this machine rather than a Hub id: it starts with `./`, `../`, `/`, `~`
    or `runs/`, has more than one `/` (Hub ids have one), contains the platform's own separator where that is not
    `/`, or its parent folder exists here (`out/x` with an `out/` folder)."""
    if path.startswith(("./", "../", "/", "~", "runs/", "." + os.sep, ".." + os.sep)):
        return True
    if path.count("/") > 1 or (os.sep != "/" and os.sep in path):
        return True
    parent = Path(path).parent
    return str(parent) not in ("", ".") and parent.is_dir()


def in_hub_cache(repo_id: str) -> bool:
    """True when the Hugging Face cache holds files of the Hub repository `repo_id` (a config, an adapter config or
    a tokenizer config), so an offline run can load it."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    for filename in ("config.json", "adapter_config.json", "tokenizer_config.json"):
        try:
            if isinstance(try_to_load_from_cache(repo_id, filename), str):
                return True
        except ValueError:  # not a valid repository id
            return False
    return False


def check_model_path(path: str, what: str = "model", make_it: str = "") -> None:
    """Fail at once, with an `InputError` naming `path`, when it is not a folder here and either looks local
    (`looks_local`; the error then names the command `make_it` that writes it) or `HF_HUB_OFFLINE` is set and the
    Hugging Face cache does not hold it: otherwise transformers would spend about a minute retrying the Hub before
    giving up. A Hub id passes through (online, or cached when offline)."""
    if Path(path).expanduser().exists():
        return
    if looks_local(path):
        hint = f"; make it with: {make_it}" if make_it else ""
        raise InputError(f"{what} not found: {path} (no such folder){hint}")
    offline = os.environ.get("HF_HUB_OFFLINE", "").strip().lower() not in ("", "0", "false", "no", "off")
    if offline and not in_hub_cache(path):
        raise InputError(
            f"{what} not found: {path} is no folder here, and HF_HUB_OFFLINE is set while the Hugging Face cache "
            "does not hold it"
        )


def is_adapter(path: str) -> bool:
    """True when `path` is a folder holding a PEFT adapter (`adapter_config.json`)."""
    return (Path(path) / "adapter_config.json").is_file()


def load_tokenizer_checked(path: str, *, need_generation_markers: bool, template_path: str | None = None):
    """The tokenizer saved at `path` (its chat template replaced by the file `template_path` if given), which must
    have a chat template, with `{% generation %}` markers when the loss is on assistant tokens only."""
    from ..llm.backends import load_tokenizer

    try:
        tokenizer = load_tokenizer(path)
    except OSError as exc:
        raise InputError(f"cannot load a tokenizer from {path}: {exc}") from exc
    if template_path:
        try:
            tokenizer.chat_template = Path(template_path).read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot read chat template {template_path}: {exc}") from exc
        path = template_path
    template = tokenizer.chat_template
    if not template:
        raise InputError(
            f"the tokenizer in {path} has no chat template; give one with --chat_template_path FILE "
            "(kg2tool models carry theirs)"
        )
    if need_generation_markers and isinstance(template, str) and GENERATION_MARKER not in template:
        raise InputError(
            f"the chat template of {path} has no {{% generation %}} ... {{% endgeneration %}} markers, which "
            "assistant-only loss needs: wrap what the assistant writes in them and pass the file with "
            "--chat_template_path FILE (see kg2tool/llm/chat_format.py for a template that has them), or train "
            "on all tokens with --assistant_only_loss false"
        )
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_model(path: str, dtype: str | None = "float32"):
    """A causal LM from `path`; an adapter folder is loaded onto its base model and merged."""
    import torch
    from transformers import AutoModelForCausalLM

    torch_dtype = getattr(torch, dtype) if dtype and dtype != "auto" else "auto"
    if not Path(path).exists() and "/" not in path.strip("./"):
        raise InputError(f"model not found: {path}")
    try:
        if is_adapter(path):
            from peft import AutoPeftModelForCausalLM

            model = AutoPeftModelForCausalLM.from_pretrained(path, dtype=torch_dtype).merge_and_unload()
        else:
            model = AutoModelForCausalLM.from_pretrained(path, dtype=torch_dtype)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot load a model from {path}: {exc}") from exc
    if Path(path).is_dir():  # adapters record their base by this name: absolute, so they load from any folder
        model.name_or_path = model.config._name_or_path = str(Path(path).resolve())
    if getattr(model.config, "output_router_logits", False):
        model.config.output_router_logits = False  # the MoE losses come from MoeLossMixin
    return model



def is_moe(model) -> bool:
    """True when `model`'s config has routed experts (`num_experts`)."""
    return bool(getattr(model.config, "num_experts", 0))


def default_lora_targets(model) -> list[str]:
    """The linear layers named in `DEFAULT_LORA_TARGETS`, each as `parent.name` (`self_attn.q_proj`,
    `shared_expert.down_proj`), in the list's order. The parent is named because PEFT 0.22 reads a bare `down_proj`
    of a fused-experts MoE as the routed experts' parameter too, and those are LoRA targets only when
    `lora_target_parameters` names them."""
    import torch

    found: dict[str, set[str]] = {}
    for name, module in model.named_modules():
        leaf = name.rsplit(".", 1)[-1]
        if leaf in DEFAULT_LORA_TARGETS and isinstance(module, torch.nn.Linear):
            parts = name.split(".")
            found.setdefault(leaf, set()).add(".".join(parts[-2:]) if len(parts) > 1 else leaf)
    return [t for leaf in DEFAULT_LORA_TARGETS for t in sorted(found.get(leaf, ()))]


def peft_config(setup: RunSetup, model):
    """TRL's LoRA config from the model arguments, with `DEFAULT_LORA_TARGETS` (those the model has) when no
    target modules are named; `lora_target_parameters` (routed experts) come on top."""
    from trl import get_peft_config

    margs = setup.model
    if not margs.use_peft:
        return None
    if margs.lora_target_modules is None:
        targets = default_lora_targets(model)
        if not targets:
            raise UsageError(
                f"none of the default LoRA targets ({', '.join(DEFAULT_LORA_TARGETS)}) is a module of this model: "
                "name them with --lora_target_modules"
            )
        margs.lora_target_modules = targets
    if getattr(margs, "lora_target_parameters", None) and margs.lora_dropout:
        raise UsageError(
            f"--lora_target_parameters ({', '.join(margs.lora_target_parameters)}) takes --lora_dropout 0 "
            f"(PEFT applies no dropout to parameter targets), not {margs.lora_dropout}"
        )
    return get_peft_config(margs)



def set_threads(extra) -> None:
    """Set torch's CPU threads from `extra.torch_num_threads` (0 keeps torch's default)."""
    if extra.torch_num_threads > 0:
        import torch

        torch.set_num_threads(extra.torch_num_threads)


def moe_trainer_class(base_cls, model, copy_loss: bool = False):
    """`base_cls` with the MoE losses mixed in when `model` is a MoE and the auxiliary copy loss when asked."""
    from .copy_task import CopyAuxMixin
    from .moe_trainer import MoeLossMixin

    bases = ([CopyAuxMixin] if copy_loss else []) + ([MoeLossMixin] if is_moe(model) else [])
    if not bases:
        return base_cls
    prefix = ("Copy" if copy_loss else "") + ("Moe" if is_moe(model) else "")
    return type(f"{prefix}{base_cls.__name__}", (*bases, base_cls), {})



def trainable_parameters(model) -> dict[str, int]:
    """`{"total": n, "trainable": m}` parameter counts of `model`."""
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return {"total": total, "trainable": trainable}
