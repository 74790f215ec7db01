package com.acme.fulfil.order;

/** What {@link OrderParser} made of a message body: an order to fulfil, or a poison message. */
public sealed interface ParsedOrder permits ValidOrder, InvalidOrder {}
