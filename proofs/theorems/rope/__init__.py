"""Module 11, rotary embeddings (RoPE): its definitions and its theorems.

bridge leads from module 10's rotation to RoPE; layouts, group, scaling, decay and precision
prove the layouts and their conversion, the group law, the scaling methods, RoFormer's decay
bound and what 16-bit formats do to positions.
"""
