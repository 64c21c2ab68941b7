"""Only one thing is configured here; everything else is in pyproject.toml.

An editable install (``pip install -e .``) gets the data files a wheel gets. setuptools means
to install them there ("Installing data as non editable") but asks the distribution for
``has_data()``, which does not exist (``has_data_files()`` does), so it never does. The one
data file is the placeholder that answers Guardrails' import-time check for nltk's punkt data
(it downloads it when missing): without it, an editable install reached the network whenever
``guardrails`` was imported before ``provenance_guard``. Where setuptools reads the right name,
this changes nothing.
"""

from setuptools import setup
from setuptools.command.editable_wheel import editable_wheel


class EditableWheelWithData(editable_wheel):
    def _run_install(self, category: str) -> None:
        if category == "data" and self.distribution.has_data_files():
            self.run_command("install_data")
            return
        super()._run_install(category)


setup(cmdclass={"editable_wheel": EditableWheelWithData})
