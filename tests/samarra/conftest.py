import pytest

from samarra import Rules
from samarra.solve import solve


@pytest.fixture(scope="session")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("samarra-cache")


@pytest.fixture(scope="session")
def table33(cache):
    return solve(Rules(length=3), directory=cache)


@pytest.fixture(scope="session")
def table34(cache):
    return solve(Rules(length=4), directory=cache)


@pytest.fixture(scope="session")
def table33_optional(cache):
    """3 × 3 with both optional turn rules: passing and no repetition."""
    return solve(Rules(length=3, allow_pass=True, no_repetition=True), directory=cache)
