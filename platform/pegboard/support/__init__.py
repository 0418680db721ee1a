"""Small leaf helpers several packages share: where the shipped data lives, reading text files."""
