package dev.toolcalls.internal.constraint;

import java.util.Arrays;

/**
 * The coarsest partition of a grammar's frames in which the frames of a class have the same set of
 * alternatives, item by item, once each frame is named by its class: refined from one class until
 * no class splits.
 *
 * <p>A frame's alternatives are given flat: frame {@code f}'s are {@code altStart[f]} to {@code
 * altStart[f + 1]}, alternative {@code a}'s items are {@code items[itemStart[a]]} to {@code
 * items[itemStart[a + 1]]}, each a frame (its number, 0 or more) or a text (a negative number,
 * equal texts one number).
 *
 * <p>A class keeps its number while it splits (one part keeps it, the others take new ones), so a
 * frame whose items' classes kept their numbers keeps its signature: each round signs only the
 * frames that name a frame that changed class, and the frames of their classes that did not (one
 * each, which stands for them all). A signature is the set of its alternatives' hashes; two frames
 * of equal hashes are compared item by item before they share a class.
 */
final class FrameClasses {
    private final int n;
    private final int[] altStart;
    private final int[] itemStart;
    private final int[] items;

    /** Each frame's class. */
    private final int[] cls;

    /** Per frame's alternatives: their hashes, sorted, and which alternative each is. */
    private final long[] altHash;

    private final int[] altOf;

    /** Per frame: its distinct alternatives (the first of {@link #altHash} in its range). */
    private final int[] distinct;

    /** Per frame: the hash of its signature. */
    private final long[] sigHash;

    /** The frames whose items name each frame. */
    private final int[] predStart;

    private final int[] preds;

    /** The members of each class, a list linked both ways ({@code -1}: none). */
    private final int[] head;

    private final int[] nextMember;
    private final int[] prevMember;

    /** A table of signatures by hash: its frames (-1: free) and their new classes. */
    private int[] slotFrame;

    private int[] slotClass;

    private FrameClasses(int n, int[] altStart, int[] itemStart, int[] items) {
        this.n = n;
        this.altStart = altStart;
        this.itemStart = itemStart;
        this.items = items;
        cls = new int[n];
        int alts = altStart[n];
        altHash = new long[alts];
        altOf = new int[alts];
        distinct = new int[n];
        sigHash = new long[n];
        int[] count = new int[n + 1];
        for (int a = 0; a < alts; a++)
            for (int k = itemStart[a]; k < itemStart[a + 1]; k++)
                if (items[k] >= 0) count[items[k] + 1]++;
        for (int f = 0; f < n; f++) count[f + 1] += count[f];
        predStart = count.clone();
        preds = new int[count[n]];
        int[] fill = Arrays.copyOf(count, n);
        for (int f = 0; f < n; f++)
            for (int a = altStart[f]; a < altStart[f + 1]; a++)
                for (int k = itemStart[a]; k < itemStart[a + 1]; k++)
                    if (items[k] >= 0) preds[fill[items[k]]++] = f;
        head = new int[n];
        Arrays.fill(head, -1);
        nextMember = new int[n];
        prevMember = new int[n];
        for (int f = n - 1; f >= 0; f--) link(f, 0);
        int size = Integer.highestOneBit(Math.max(4, n)) << 2;
        slotFrame = new int[size];
        slotClass = new int[size];
    }

    /** The class of each frame; classes are numbered from 0, a number for each. */
    static int[] of(int n, int[] altStart, int[] itemStart, int[] items) {
        FrameClasses c = new FrameClasses(n, altStart, itemStart, items);
        c.refine();
        return c.cls;
    }

    private void link(int f, int c) {
        cls[f] = c;
        prevMember[f] = -1;
        nextMember[f] = head[c];
        if (head[c] >= 0) prevMember[head[c]] = f;
        head[c] = f;
    }

    private void unlink(int f) {
        int c = cls[f];
        if (prevMember[f] >= 0) nextMember[prevMember[f]] = nextMember[f];
        else head[c] = nextMember[f];
        if (nextMember[f] >= 0) prevMember[nextMember[f]] = prevMember[f];
    }

    private void refine() {
        if (n == 0) return;
        int classes = 1;
        boolean[] dirty = new boolean[n];
        int[] work = new int[n];
        int size = n;
        for (int f = 0; f < n; f++) {
            work[f] = f;
            dirty[f] = true;
        }
        int[] next = new int[n];
        int[] touched = new int[n];
        boolean[] isTouched = new boolean[n];
        // per touched class: whether its number is given to a part yet
        boolean[] kept = new boolean[n];
        int[] moved = new int[n];
        while (size > 0) {
            Arrays.fill(slotFrame, -1);
            int touchedCount = 0;
            for (int w = 0; w < size; w++) {
                int c = cls[work[w]];
                if (!isTouched[c]) {
                    isTouched[c] = true;
                    kept[c] = false;
                    touched[touchedCount++] = c;
                }
            }
            // the frames of a touched class that name no changed frame keep its number
            for (int t = 0; t < touchedCount; t++) {
                int c = touched[t];
                int clean = head[c];
                while (clean >= 0 && dirty[clean]) clean = nextMember[clean];
                if (clean < 0) continue;
                sign(clean);
                place(clean, c);
                kept[c] = true;
            }
            for (int w = 0; w < size; w++) sign(work[w]);
            int movedCount = 0;
            for (int w = 0; w < size; w++) {
                int f = work[w];
                int c = cls[f];
                int found = find(f);
                if (found < 0) {
                    if (!kept[c]) {
                        kept[c] = true;
                        found = c;
                    } else found = classes++;
                    place(f, found);
                }
                next[w] = found;
            }
            for (int w = 0; w < size; w++) {
                int f = work[w];
                if (next[w] != cls[f]) {
                    unlink(f);
                    link(f, next[w]);
                    moved[movedCount++] = f;
                }
            }
            for (int t = 0; t < touchedCount; t++) isTouched[touched[t]] = false;
            for (int w = 0; w < size; w++) dirty[work[w]] = false;
            size = 0;
            for (int m = 0; m < movedCount; m++) {
                int f = moved[m];
                for (int p = predStart[f]; p < predStart[f + 1]; p++)
                    if (!dirty[preds[p]]) {
                        dirty[preds[p]] = true;
                        work[size++] = preds[p];
                    }
            }
        }
    }

    private static long mix(long h, long v) {
        long x = (h ^ v) * 0x9E3779B97F4A7C15L;
        return x ^ (x >>> 31);
    }

    /** The hash of alternative {@code a} with its frames named by their classes. */
    private long hash(int a) {
        long h = itemStart[a + 1] - itemStart[a];
        for (int k = itemStart[a]; k < itemStart[a + 1]; k++) {
            int v = items[k];
            h = mix(h, v >= 0 ? cls[v] : v);
        }
        return h;
    }

    /** Whether alternatives {@code a} and {@code b} are equal with frames named by class. */
    private boolean same(int a, int b) {
        int length = itemStart[a + 1] - itemStart[a];
        if (itemStart[b + 1] - itemStart[b] != length) return false;
        for (int i = 0; i < length; i++) {
            int x = items[itemStart[a] + i];
            int y = items[itemStart[b] + i];
            if (x >= 0 ? y < 0 || cls[x] != cls[y] : x != y) return false;
        }
        return true;
    }

    /** Writes the frame's sorted alternative hashes, its distinct ones, and its signature. */
    private void sign(int f) {
        int from = altStart[f];
        int to = altStart[f + 1];
        for (int a = from; a < to; a++) {
            long h = hash(a);
            int i = a;
            // insertion sort: a frame has few alternatives
            while (i > from && altHash[i - 1] > h) {
                altHash[i] = altHash[i - 1];
                altOf[i] = altOf[i - 1];
                i--;
            }
            altHash[i] = h;
            altOf[i] = a;
        }
        // drop alternatives equal to one before them (equal ones have equal hashes)
        int end = from;
        for (int i = from; i < to; i++) {
            boolean repeated = false;
            for (int j = end - 1; j >= from && altHash[j] == altHash[i] && !repeated; j--)
                repeated = same(altOf[j], altOf[i]);
            if (repeated) continue;
            altHash[end] = altHash[i];
            altOf[end++] = altOf[i];
        }
        distinct[f] = end - from;
        long h = end - from;
        for (int i = from; i < end; i++) h = mix(h, altHash[i]);
        sigHash[f] = h;
    }

    /** Whether signed frames {@code f} and {@code g} have the same signature. */
    private boolean sameSignature(int f, int g) {
        if (sigHash[f] != sigHash[g] || distinct[f] != distinct[g]) return false;
        int gFrom = altStart[g];
        int gEnd = gFrom + distinct[g];
        for (int i = altStart[f]; i < altStart[f] + distinct[f]; i++) {
            long h = altHash[i];
            // the first of g's alternatives of that hash
            int lo = gFrom;
            int hi = gEnd;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (altHash[mid] < h) lo = mid + 1;
                else hi = mid;
            }
            boolean found = false;
            for (int j = lo; j < gEnd && altHash[j] == h && !found; j++)
                found = same(altOf[i], altOf[j]);
            if (!found) return false;
        }
        return true;
    }

    private int slot(int f) {
        long h = sigHash[f] * 31 + cls[f];
        return (int) (h ^ (h >>> 32)) & (slotFrame.length - 1);
    }

    /** The new class of a frame of {@code f}'s class and signature placed this round; -1: none. */
    private int find(int f) {
        int mask = slotFrame.length - 1;
        for (int s = slot(f); slotFrame[s] >= 0; s = (s + 1) & mask) {
            int g = slotFrame[s];
            if (cls[g] == cls[f] && sameSignature(f, g)) return slotClass[s];
        }
        return -1;
    }

    /** Notes that frames of {@code f}'s class and signature take class {@code c} this round. */
    private void place(int f, int c) {
        int mask = slotFrame.length - 1;
        int s = slot(f);
        while (slotFrame[s] >= 0) s = (s + 1) & mask;
        slotFrame[s] = f;
        slotClass[s] = c;
    }
}
