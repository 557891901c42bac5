-- how a fight is shown: its board pinned while it lasts; for a fight in a thread of its own,
-- the channel its result is posted back to; the turn whose players were last pinged
-- ("round:turn"), so a restart does not ping them again.
ALTER TABLE combats ADD COLUMN pin INTEGER NOT NULL DEFAULT 0;
ALTER TABLE combats ADD COLUMN report_channel_id INTEGER;
ALTER TABLE combats ADD COLUMN announced_turn TEXT;
