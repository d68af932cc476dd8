-- AI agents (net/agents): a display name per mapping, lookups by account and character, and the
-- messages kept for an agent that is not connected (at most 50 each, delivered when it connects).
ALTER TABLE agent_mappings ADD COLUMN name text NOT NULL DEFAULT '';
CREATE INDEX agent_mappings_account ON agent_mappings ("accountId");
CREATE INDEX agent_mappings_character ON agent_mappings ("characterId");

CREATE TABLE agent_messages (
  id bigserial PRIMARY KEY,
  "agentId" text NOT NULL REFERENCES agent_mappings("agentId") ON DELETE CASCADE,
  "fromAccountId" text NOT NULL,
  "fromName" text NOT NULL,
  content text NOT NULL,
  "sentAt" timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_messages_agent ON agent_messages ("agentId", id);
