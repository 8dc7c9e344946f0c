"""Sample-complexity results of BCMNUW20, ABM19, LVSUW21 and NB20 as mathematics.

Pure mathematics: this package imports no other package of the workbench.
"""
