"""hexfire: a two-player hotseat hex wargame on the anti-tank rules of ASL (C6, C7) and the
simplified AT fire procedure of Valor & Victory."""

__version__ = "0.1.0"
