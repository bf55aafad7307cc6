"""Tokens with text no signer ever produces are refused as `TokenError`, never a crash."""

import os
import subprocess
import sys

import pytest
from shell_testcase import ShellTestCase

from server.net.tokens import TokenError, TokenSigner

SIGNER = TokenSigner(b"k" * 32)


class TokenTests(ShellTestCase):
    def test_malformed_tokens_are_token_errors(self):
        for token in [
            "t24v1.é.x",  # non-ASCII claims
            "t24v1.abc.é",  # non-ASCII signature (hmac.compare_digest refuses mixed text)
            "t24v1.abc.\x00",
            "t24v1..",
            "",
            "t24v1.abc.def.ghi",
        ]:
            with pytest.raises(TokenError):
                SIGNER.verify(token, now=0)

    def test_a_valid_token_still_verifies(self):
        token, claims = SIGNER.issue("director", now=1000)
        assert SIGNER.verify(token, now=1001) == claims

    def test_token_command_refuses_a_readable_secret_in_one_line(self):
        tmp_path = self.tmp_path
        secret = tmp_path / "secret"
        secret.write_text("ab" * 32 + "\n")
        os.chmod(secret, 0o644)
        result = subprocess.run(
            [sys.executable, "-m", "server", "token", "director", "--secret-file", str(secret)],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
        assert "readable by group or others" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
