-- What start-up reads (bot/store/postgres/combats.py, to_restore), each from a partial index
-- of its own: the fights with a deadline (channel, when), and the fights whose newest step was
-- not shown; a fight with neither is not read at all. They replace the schema's one index of
-- both (which the start-up's two queries no longer match).
DROP INDEX combats_to_restore;
CREATE INDEX combats_deadlines ON combats (channel_id, next_deadline, guild_id)
    WHERE next_deadline IS NOT NULL;
CREATE INDEX combats_unshown ON combats (channel_id, id, guild_id)
    WHERE shown_version < version;
