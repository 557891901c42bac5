-- What start-up reads of every fight (its summary: bot/store/sqlite/combats.py, to_restore),
-- in an index of its own. The columns were added after `state`, so reading them from the table
-- follows each fight's state through its overflow pages: the whole database, 10,000 fights by
-- post, read to learn when each waits until. (PostgreSQL keeps a long state out of the row,
-- TOAST: its scan reads only the rows, and needs no such index.)
CREATE INDEX combats_to_restore
    ON combats (active, version, shown_version, id, channel_id, next_deadline, guild_id);
