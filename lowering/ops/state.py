"""(placeholder: filled in below)"""

from lowpass.lowering.emit import OpLowering

LOWERINGS: list[type[OpLowering]] = []
