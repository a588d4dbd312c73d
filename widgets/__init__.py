"""musteach_widgets: ipywidgets views over musteach (installed from ``widgets/``).

No rule logic lives here: every verdict, explanation and picture comes from :mod:`musteach`.
"""
