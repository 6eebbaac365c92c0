"""The dataset folder: writing and reading it, its card, BFCL files, exports, publishing to the Hub, inspection."""
