"""The three papers the report speaks about, named by number and title (never by file hash).

Titles and authors from the first lines of the plain-text conversions in ``shared/papers``
(see its README); the identifiers are the project's numbers, which every citation tag uses
(``[002 Thm. 4]``).  The conversions carry no arXiv number or DOI, so none is given here.
"""

from __future__ import annotations

__all__ = ["PAPERS", "paper_label"]

PAPERS = {
    "000": {
        "id": "000",
        "short": "Wang & Xu",
        "title": "Differentially Private l1-norm Linear Regression with Heavy-tailed Data",
        "authors": ["Di Wang", "Jinhui Xu"],
        "note": "Algorithms 1-2 (exponential mechanism over a zeta-net), Theorems 1-2; "
        "001 is the same paper without its mathematics.",
    },
    "002": {
        "id": "002",
        "short": "Hu, Ni, Xiao & Wang",
        "title": "High Dimensional Differentially Private Stochastic Optimization with Heavy-tailed Data",
        "authors": ["Lijie Hu", "Shuo Ni", "Hanshen Xiao", "Di Wang"],
        "note": "Full version with appendix and Section 6 experiments; 003 is the conference version.",
    },
    "004": {
        "id": "004",
        "short": "Arora et al.",
        "title": "Differentially Private Generalized Linear Models Revisited",
        "authors": ["Raman Arora", "Raef Bassily", "Cristóbal Guzmán", "Michael Menart", "Enayat Ullah"],
        "note": "A fragment: Private Grid Search with the Generalized Exponential Mechanism (App. D.1), "
        "Boosting (App. E).",
    },
}


def paper_label(paper):
    """``"002 (Hu, Ni, Xiao & Wang)"``; other sources (textbook results) as ``"other"``.

    Examples
    --------
    >>> paper_label("000")
    '000 (Wang & Xu)'
    >>> paper_label("other")
    'other'
    """
    entry = PAPERS.get(paper)
    return f"{paper} ({entry['short']})" if entry else paper
