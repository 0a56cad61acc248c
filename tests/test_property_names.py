"""A property's name is how a report tells it: a blank one (`name = ""`, `"   "`) and one
with a space before or after ("a " beside "a") were accepted, and a failure then named
property '' or 'a '. Each is refused where the name is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_dsl_authoring import check


@pytest.mark.parametrize(("name", "message"), [
    ('""', "a property needs a name: this one is blank"),
    ('"   "', "a property needs a name: this one is blank"),
    ('"a "', "a property's name may not begin or end with a space: write 'a', not 'a '"),
    ("'\tround'", "a property's name may not begin or end with a space: write 'round', not "
     "'\\tround'"),
])
def test_a_blank_or_padded_property_name_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, message: str) -> None:
    code, errors, path = check(tmp_path, f'extends = "japan"\n\n[[property]]\nname = {name}\n'
                               'check = "round >= 0"\n', capsys)
    assert code == 2 and errors == [f"{path}:4:8: property[0].name: {message}"], errors


def test_a_name_and_the_same_with_a_space_is_refused_at_the_padded_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, errors, path = check(tmp_path, 'extends = "japan"\n\n[[property]]\nname = "a"\n'
                               'check = "round >= 0"\n\n[[property]]\nname = "a "\n'
                               'check = "round >= 1"\n', capsys)
    assert code == 2 and len(errors) == 1 and errors[0].startswith(
        f"{path}:8:8: property[1].name: a property's name may not begin"), errors
