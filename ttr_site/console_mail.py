"""The console e-mail backend of development (``EMAIL_URL=consolemail://``, the default).

Django's own prints the raw MIME message, where a long link may be split across
quoted-printable lines. This one prints a banner first: who the e-mail is to, its subject,
and every link of its text on a line of its own, so the sign-up confirmation is easy to find
in the console and its link can be clicked as it is.
"""

import re

from django.core.mail.backends.console import EmailBackend as ConsoleEmailBackend

RULE = "=" * 78
LINK = re.compile(r"https?://[^\s<>\"']+")


def banner(message) -> str:
    """The lines printed above an e-mail: recipients, subject and links."""
    lines = [RULE, f"E-MAIL to {', '.join(message.to)}: {message.subject}"]
    lines += [f"  Link: {url.rstrip('.,;:)')}" for url in LINK.findall(str(message.body))]
    return "\n".join([*lines, RULE, ""])


class EmailBackend(ConsoleEmailBackend):
    """Each message between rules, after a banner of its recipients, subject and links."""

    def write_message(self, message):
        self.stream.write(banner(message))
        super().write_message(message)
        self.stream.write(f"{RULE}\n(end of the e-mail to {', '.join(message.to)})\n{RULE}\n")
