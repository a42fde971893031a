# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Sphinx directive for the figures scripts/docs.sh draws from real runs.

    .. tp-figure:: flow_life.png
       :alt: what the figure shows, for a reader who cannot see it

       The caption: what to notice.

The image is FIGDIR/NAME, where FIGDIR is the TP_FIGURES environment
variable (scripts/docs.sh sets it to BUILD/docs/_figures and runs
tools/docs_figures.py there first); the caption gets the run the figure was
drawn from (date, commit, DPDK version) from FIGDIR/figures.json. A figure
that was not drawn, or one without alt text or a caption, is an error, so
the -W build fails instead of showing a page without it.
"""

import json
import os

from docutils.parsers.rst import directives
from sphinx.directives.patches import Figure


class TpFigure(Figure):
    option_spec = dict(Figure.option_spec)
    option_spec["alt"] = directives.unchanged_required

    def run(self):
        env = self.state.document.settings.env
        figdir = env.config.tp_figures_dir
        name = self.arguments[0]
        if not figdir:
            raise self.error("tp-figure %s: TP_FIGURES is not set: build "
                             "the guides with bash scripts/docs.sh, which "
                             "draws the figures" % name)
        try:
            with open(os.path.join(figdir, "figures.json")) as f:
                stamps = json.load(f)
        except (OSError, ValueError) as e:
            raise self.error("tp-figure %s: %s (run bash scripts/docs.sh)"
                             % (name, e))
        path = os.path.join(figdir, name)
        if name not in stamps or not os.path.isfile(path):
            raise self.error("tp-figure %s was not drawn by "
                             "tools/docs_figures.py" % name)
        if not self.options.get("alt"):
            raise self.error("tp-figure %s needs :alt: text" % name)
        if not self.content:
            raise self.error("tp-figure %s needs a caption" % name)
        # The caption is the content's first paragraph: end it with the run.
        end = len(self.content)
        for i, line in enumerate(self.content):
            if not line.strip():
                end = i
                break
        src, off = self.content.info(end - 1)
        self.content.insert(end, "(Drawn from %s.)" % stamps[name], src, off)
        self.arguments[0] = "/" + os.path.relpath(path, env.srcdir)
        return super().run()


def setup(app):
    app.add_config_value("tp_figures_dir", "", "env")
    app.add_directive("tp-figure", TpFigure)
    return {"parallel_read_safe": True, "version": "1"}
