"""The one error type of the bounds package."""


class DomainError(ValueError):
    """A parameter outside the domain where a result holds, an unknown result id, or a malformed range.

    The message names the parameter, its value and the allowed range; the command line prints it
    as one line on stderr and exits with status 2.
    """
