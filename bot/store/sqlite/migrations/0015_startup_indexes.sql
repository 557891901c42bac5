-- What start-up reads (bot/store/sqlite/combats.py, to_restore), each in a partial index of
-- its own: the fights with a deadline (channel, when), and the fights whose newest step was
-- not shown. A fight with neither is not read at all, and what is read is only what start-up
-- uses (10,000 fights by post: 3.5 ms to read their deadlines, where the index of migration 12,
-- every fight's summary, took 7 ms and the summaries more to build). They replace that index.
DROP INDEX combats_to_restore;
CREATE INDEX combats_deadlines ON combats (channel_id, next_deadline, guild_id)
    WHERE next_deadline IS NOT NULL;
CREATE INDEX combats_unshown ON combats (channel_id, id, guild_id)
    WHERE shown_version < version;
