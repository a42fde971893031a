# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Sphinx configuration of the guides; scripts/docs.sh builds them (with -W,
# warnings as errors) and the Doxygen API reference into build/docs/html.
# Figures: the timer's states through sphinx.ext.graphviz (Debian's
# graphviz), the rest drawn from real runs by tools/docs_figures.py into
# $TP_FIGURES and placed by the tp-figure directive (_ext/tp_figures.py).

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "_ext"))

project = "timer_pipeline"
author = "The timer_pipeline authors"
copyright = "2026, " + author

extensions = ["sphinx.ext.graphviz", "tp_figures"]
tp_figures_dir = os.environ.get("TP_FIGURES", "")
graphviz_output_format = "png"
master_doc = "index"
source_suffix = ".rst"
exclude_patterns = ["_build", "_ext", "bench", "soak", "Doxyfile"]
highlight_language = "none"
html_theme = "alabaster"
html_theme_options = {"nosidebar": False, "page_width": "1100px"}
html_static_path = []
# Code blocks are quoted from the sources: never guess a language.
pygments_style = "sphinx"
