"""What the claim modules share: the entry type, ball helpers and the RoPE-sum sweep."""
