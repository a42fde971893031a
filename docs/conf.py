# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Sphinx configuration of the guides; scripts/docs.sh builds them (with -W,
# warnings as errors) and the Doxygen API reference into build/docs/html.

project = "timer_pipeline"
author = "The timer_pipeline authors"
copyright = "2026, " + author

extensions = []
master_doc = "index"
source_suffix = ".rst"
exclude_patterns = ["_build", "bench", "soak", "Doxyfile"]
highlight_language = "none"
html_theme = "alabaster"
html_theme_options = {"nosidebar": False, "page_width": "1100px"}
html_static_path = []
# Code blocks are quoted from the sources: never guess a language.
pygments_style = "sphinx"
