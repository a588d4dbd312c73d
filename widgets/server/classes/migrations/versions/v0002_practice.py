"""A class's practice skill (the teacher points every learner's practice at one skill), and the records indexed
by class and kind for the dashboard.

Revision ID: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("classes") as batch:
        batch.add_column(sa.Column("practice_skill", sa.String(40), nullable=True))
    op.create_index("ix_records_class_kind", "records", ["class_id", "kind"])


def downgrade() -> None:
    op.drop_index("ix_records_class_kind", "records")
    with op.batch_alter_table("classes") as batch:
        batch.drop_column("practice_skill")
