package com.acme.fulfil.ops;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What a command found, twice: sentences for a person and a JSON document for scripts.
 *
 * @param exitCode 0 all well, 1 something needs on-call (drift found, a message not found)
 */
record Report(List<String> lines, ObjectNode json, int exitCode) {}
