"""The records indexed by learner, skill and time: the dashboard asks, for each misconception a learner showed,
how many questions of that skill they have since answered right at the first try.

Revision ID: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_records_learner_skill_at", "records", ["learner_id", "skill", "at"])


def downgrade() -> None:
    op.drop_index("ix_records_learner_skill_at", "records")
