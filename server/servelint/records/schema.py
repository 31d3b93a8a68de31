"""The error-record format (schemaVersion 2), as a pydantic model.

Exactly the fields of the seed records in ``shared/seeds/``.  Users' record
files are validated against it; the bundled ones are checked by a test.
"""

from __future__ import annotations

from typing import Optional

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """One error record, schemaVersion 2: exactly the seeds' fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    repo: Optional[str] = None
    slug: Optional[str] = None
    errorCode: Optional[str] = None
    errorMessage: str
    messagePattern: str
    errorType: Optional[str] = None
    errorClass: Optional[str] = None
    httpStatus: Optional[int] = None
    severity: Optional[str] = None
    filePath: Optional[str] = None
    lineNumber: Optional[int] = None
    sourceCode: Optional[str] = None
    sourceCodeStart: Optional[int] = None
    sourceCodeEnd: Optional[int] = None
    githubUrl: Optional[str] = None
    documentation: str = ""
    triggerScenarios: Optional[str] = None
    commonSituations: Optional[str] = None
    solutions: list[str] = []
    exampleFix: Optional[str] = None
    handlingStrategy: Optional[str] = None
    # Python snippets: documentation only, never executed.
    validationCode: Optional[str] = None
    typeGuard: Optional[str] = None
    tryCatchPattern: Optional[str] = None
    preventionTips: list[str] = []
    tags: list[str] = []
    backgroundTag: Optional[str] = None
    analyzedSha: Optional[str] = None
    analyzedAt: Optional[str] = None
    schemaVersion: int = 2
