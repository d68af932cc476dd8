-- Slice social (persistence/slices/social.ts): the tables of 001 are read from both ends of a pair.
CREATE INDEX friendships_b ON friendships ("characterB");
CREATE INDEX friend_requests_to ON friend_requests ("toId");
CREATE INDEX ignore_lists_ignored ON ignore_lists ("ignoredCharacterId");
