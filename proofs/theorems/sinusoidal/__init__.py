"""Module 10, the sinusoidal positional encoding: its definitions and its theorems.

frequencies, bounded, unique, rotation and ramp are the course module's own claims, proved in
general; similarity, attention, dot_product, shift_maps, group and layouts go beyond it.
"""
