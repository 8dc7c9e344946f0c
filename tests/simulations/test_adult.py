"""LVSUW21's ADULT, read offline from the shipped UCI files: the paper's domain and the sex share it biases."""
import gzip

import numpy as np
import pytest

from simulations.data import adult
from simulations.data.cps import biased_pair


def test_adult_is_lvsuw21s_domain():
    domain, rows = adult.load_adult()
    assert rows.shape == (48_842, 13)
    assert sum(adult.ADULT_SIZES) == 146                     # LVSUW21: "the data domain has dimension 146"
    assert np.array_equal(rows.max(axis=0) + 1, adult.ADULT_SIZES)   # every value of every attribute occurs
    r = float(np.mean(rows[:, adult.ADULT_SEX] == adult.ADULT_FEMALE))
    assert r == pytest.approx(16_192 / 48_842)               # LVSUW21: r ~ 0.33, the share of women


def test_numeric_bins_follow_the_authors_rule():
    """0 falls in [0, 1000) (the degenerate bin {0} stays empty), 90 in [90, inf), 99999 in [50000, inf)."""
    gain = adult.ADULT_BINS["capital-gain"]
    assert adult._bin(np.array([0.0, 999.0, 1000.0, 99999.0]), gain).tolist() == [1, 1, 2, 15]
    assert adult._bin(np.array([17.0, 89.0, 90.0]), adult.ADULT_BINS["age"]).tolist() == [1, 8, 9]


def test_a_changed_file_is_refused(tmp_path, monkeypatch):
    for name in adult._FILES:
        with gzip.open(tmp_path / name, "wb") as fh:
            fh.write(b"39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, "
                     b"Male, 2174, 0, 40, United-States, <=50K\n")
    monkeypatch.setattr(adult, "_DIR", tmp_path)
    with pytest.raises(ValueError, match="SHA-256"):
        adult._read("adult.data.gz")


def test_biased_public_data_have_the_papers_share_of_women():
    _, rows = adult.load_adult()
    priv, pub = biased_pair(rows, adult.ADULT_SEX, adult.ADULT_FEMALE, 0.2, 0.9, 0.1, np.random.default_rng(0))
    assert priv.shape[0] == round(0.9 * 48_842) and pub.shape[0] == round(0.1 * 48_842)
    share = float(np.mean(pub[:, adult.ADULT_SEX] == adult.ADULT_FEMALE))
    assert abs(share - (16_192 / 48_842 + 0.2)) < 4 * np.sqrt(0.25 / pub.shape[0])
