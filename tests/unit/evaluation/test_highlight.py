"""What the HTML report marks in an evidence passage: the clause that lines up with the
sentence, and in it the numbers and names that decide."""

import pytest

from provenance_guard.evaluation.highlight import marked

EIFFEL = "The Eiffel Tower is in Paris. It was finished in 1889. It is 330 metres tall."
VISITS = ("The tower has three levels open to visitors. About 6 million people visit the tower "
          "each year, which makes it one of the most visited paid monuments in the world.")


def shown(sentence, passage):
    runs = marked(sentence, passage)
    assert "".join(r.text for r in runs) == passage  # every character once, in order
    aligned = "".join(r.text for r in runs if r.aligned)
    return aligned, {r.text: r.mark for r in runs if r.mark}


@pytest.mark.parametrize("sentence, clause, marks", [
    ("About 9 million people visit it each year.", "About 6 million people visit the tower each",
     {"About 6 million people": "differs"}),
    ("About 6 million people visit the tower each year.", "About 6 million people visit",
     {"About 6 million people": "same"}),
    # a number is the same at the claim's own precision, and its hedge is marked with it
    ("Some 6.4 million people visit the tower each year.", "About 6 million people visit",
     {"About 6 million people": "differs"}),
    ("It was finished in 1899.", "It was finished in 1889", {"1889": "differs"}),
    ("The Eiffel Tower is in Paris.", "Eiffel Tower is in Paris", {"Eiffel": "same",
                                                                   "Paris": "same"}),
])
def test_the_aligned_clause_and_its_deciding_words(sentence, clause, marks):
    aligned, found = shown(sentence, EIFFEL + " " + VISITS)
    assert aligned.startswith(clause) or clause in aligned
    for text, mark in marks.items():
        assert found.get(text) == mark, (text, found)


def test_a_clause_read_through_a_pronoun_is_marked_from_its_own_sentence():
    """"It was finished in 1889" is read as the Eiffel Tower's, named in the sentence before;
    the mark starts at "It", not at the name."""
    aligned, found = shown("The tower was finished in 1899.", EIFFEL)
    assert "Paris" not in aligned and "finished in 1889" in aligned
    assert found == {"1889": "differs"}


@pytest.mark.parametrize("sentence, passage", [
    ("It was painted gold for the 2024 Olympic Games.", EIFFEL),  # nothing lines up
    ("", EIFFEL),
    ("The tower is tall.", ""),
    ("<b>1889</b>", "<script>1889</script> \u202e 1889 ."),
])
def test_what_does_not_line_up_is_shown_whole_and_unchanged(sentence, passage):
    runs = marked(sentence, passage)
    assert "".join(r.text for r in runs) == passage
    if sentence.startswith("It was painted"):
        assert not any(r.aligned or r.mark for r in runs)


HISTORY = ("It was designed and built by the company of the engineer Gustave Eiffel between 1887 "
           "and 1889. When it opened, the tower was 300 metres tall, and it remained the tallest "
           "man-made structure in the world until the Chrysler Building was finished in 1930.")


def test_the_clause_marked_is_the_one_the_rules_aligned():
    """The rule checker lines the sentence up with the 1887-1889 clause (and finds "World's
    Fair" missing): that clause is marked, not the one about the height."""
    sentence = ("The Eiffel Tower was built by Gustave Eiffel's company between 1887 and 1889 "
                "for the World's Fair.")
    aligned, _ = shown(sentence, HISTORY)
    assert "between 1887 and 1889" in aligned and "300 metres" not in aligned


@pytest.mark.parametrize("sentence, passage", [
    ("It was the tallest man-made structure in the world until 1930.", HISTORY),
    ("The tower has three levels open to visitors.", VISITS + " It is 330 metres tall."),
    ("The tower has three levels open to visitors.", VISITS),
])
def test_nothing_is_marked_another_number_for_a_supported_sentence(sentence, passage):
    runs = marked(sentence, passage, "supported")
    assert not [r.text for r in runs if r.mark == "differs"]


def test_a_number_the_sentence_does_not_state_is_never_another_number():
    """"The tower has three levels open to visitors" states no number of people; the passage's
    "About 6 million" is not marked whatever the verdict."""
    runs = marked("The tower has three levels open to visitors and a lift.", VISITS, "unsupported")
    assert not [r.text for r in runs if r.mark == "differs"]
