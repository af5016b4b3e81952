package dev.toolcalls.templates;

import com.hubspot.jinjava.util.HasObjectTruthValue;

/**
 * Python's None (JSON null) as a value in the template, distinct from an undefined name (Java null
 * in jinjava): {@code x is defined} holds for it, {@code x is none} too, and it is false.
 */
final class None implements HasObjectTruthValue {
    static final None NONE = new None();

    private None() {}

    @Override
    public boolean getObjectTruthValue() {
        return false;
    }

    @Override
    public String toString() {
        return "None";
    }
}
