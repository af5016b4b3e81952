package dev.toolcalls.templates;

import com.hubspot.jinjava.el.ExtendedSyntaxBuilder;
import com.hubspot.jinjava.el.ext.CollectionMembershipOperator;
import com.hubspot.jinjava.el.ext.CollectionNonMembershipOperator;
import com.hubspot.jinjava.el.ext.ExtendedParser;

import jinjava.de.odysseus.el.misc.TypeConverter;
import jinjava.de.odysseus.el.tree.Bindings;
import jinjava.de.odysseus.el.tree.Node;
import jinjava.de.odysseus.el.tree.impl.Builder;
import jinjava.de.odysseus.el.tree.impl.Parser;
import jinjava.de.odysseus.el.tree.impl.Scanner;
import jinjava.de.odysseus.el.tree.impl.ast.AstBinary;
import jinjava.de.odysseus.el.tree.impl.ast.AstDot;
import jinjava.de.odysseus.el.tree.impl.ast.AstMethod;
import jinjava.de.odysseus.el.tree.impl.ast.AstNode;
import jinjava.de.odysseus.el.tree.impl.ast.AstNull;
import jinjava.de.odysseus.el.tree.impl.ast.AstParameters;
import jinjava.de.odysseus.el.tree.impl.ast.AstProperty;
import jinjava.de.odysseus.el.tree.impl.ast.AstUnary;
import jinjava.javax.el.ELContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * jinjava's expression parser with Hugging Face's Jinja semantics where they differ: {@code +} and
 * {@code ~} (strings, numbers and lists only; undefined and none operands are errors), a keyword
 * argument's value is a whole expression ({@code f(n=xs|length - 1)}), and slices take a step
 * ({@code xs[::-1]}) with Python's bounds, on lists and strings.
 */
final class HfParser extends ExtendedParser {

    /** The syntax builder that makes this parser. */
    static final class SyntaxBuilder extends ExtendedSyntaxBuilder {
        private static final long serialVersionUID = 1L;

        SyntaxBuilder() {
            super(Builder.Feature.METHOD_INVOCATIONS, Builder.Feature.VARARGS);
        }

        @Override
        protected Parser createParser(String expression) {
            return new HfParser(this, expression);
        }
    }

    HfParser(Builder context, String input) {
        super(context, input);
        putExtensionHandler(CollectionMembershipOperator.TOKEN, handler(In.IN));
        putExtensionHandler(CollectionNonMembershipOperator.TOKEN, handler(In.NOT_IN));
    }

    private static Parser.ExtensionHandler handler(AstBinary.Operator op) {
        return new Parser.ExtensionHandler(Parser.ExtensionPoint.CMP) {
            @Override
            public AstNode createAstNode(AstNode... children) {
                return new AstBinary(children[0], children[1], op);
            }
        };
    }

    /** {@code in} and {@code not in} as Hugging Face's Jinja applies them. */
    static final class In extends AstBinary.SimpleOperator {
        static final In IN = new In(false);
        static final In NOT_IN = new In(true);

        private final boolean negated;

        private In(boolean negated) {
            this.negated = negated;
        }

        @Override
        protected Object apply(TypeConverter converter, Object a, Object b) {
            if (b == null) {
                return negated;
            }
            if (a == null) {
                throw new Values.Unrenderable("Cannot perform operation in on undefined values");
            }
            if (a instanceof None || b instanceof None) {
                throw new Values.Unrenderable("Cannot perform operation on null values");
            }
            boolean member;
            if (b instanceof List<?> l) {
                member = false;
                for (Object x : l) {
                    if (Tests.strictEquals(x, new Object[] {a})) {
                        member = true;
                        break;
                    }
                }
            } else if (a instanceof CharSequence x && b instanceof CharSequence y) {
                member = y.toString().contains(x);
            } else if (a instanceof CharSequence x && Tests.type(b).equals("ObjectValue")) {
                member = ((Map<?, ?>) b).containsKey(x.toString());
            } else {
                throw new Values.Unrenderable(
                        "Unknown operator \"in\" between "
                                + Tests.type(a)
                                + " and "
                                + Tests.type(b));
            }
            return member != negated;
        }
    }

    /**
     * {@code not} binds looser than comparisons, tests and filters, as in Jinja: {@code not x is
     * defined} is {@code not (x is defined)}.
     */
    @Override
    protected AstNode eq(boolean required) throws Scanner.ScanException, Parser.ParseException {
        if (getToken().getSymbol() == Scanner.Symbol.NOT) {
            consumeToken();
            return createAstUnary(eq(true), AstUnary.NOT);
        }
        return super.eq(required);
    }

    @Override
    protected AstNode add(boolean required) throws Scanner.ScanException, Parser.ParseException {
        AstNode v = mul(required);
        if (v == null) {
            return null;
        }
        while (true) {
            Scanner.Token token = getToken();
            switch (token.getSymbol()) {
                case PLUS:
                    consumeToken();
                    v = createAstBinary(v, mul(true), Plus.PLUS);
                    break;
                case MINUS:
                    consumeToken();
                    v = createAstBinary(v, mul(true), AstBinary.SUB);
                    break;
                case EXTENSION:
                    Parser.ExtensionHandler handler = getExtensionHandler(token);
                    if (handler.getExtensionPoint() != Parser.ExtensionPoint.ADD) {
                        return v;
                    }
                    consumeToken();
                    if ("=".equals(token.getImage())) {
                        v = handler.createAstNode(v, expr(true));
                    } else if ("~".equals(token.getImage())) {
                        v = createAstBinary(v, mul(true), Plus.TILDE);
                    } else {
                        v = handler.createAstNode(v, mul(true));
                    }
                    break;
                default:
                    return v;
            }
        }
    }

    @Override
    protected AstNode value() throws Scanner.ScanException, Parser.ParseException {
        boolean lvalue = true;
        AstNode v = nonliteral();
        if (v == null) {
            v = literal();
            if (v == null) {
                return null;
            }
            lvalue = false;
        }
        while (true) {
            switch (getToken().getSymbol()) {
                case DOT:
                    consumeToken();
                    String name = consumeToken(Scanner.Symbol.IDENTIFIER).getImage();
                    AstDot dot = createAstDot(v, name, lvalue);
                    if (getToken().getSymbol() == Scanner.Symbol.LPAREN) {
                        v = createAstMethod(dot, params());
                    } else {
                        v = dot;
                    }
                    break;
                case LBRACK:
                    consumeToken();
                    AstNode first = expr(false);
                    if (getToken().getSymbol() == Scanner.Symbol.COLON) {
                        consumeToken();
                        AstNode stop = expr(false);
                        AstNode step = null;
                        if (getToken().getSymbol() == Scanner.Symbol.COLON) {
                            consumeToken();
                            step = expr(false);
                        }
                        consumeToken(Scanner.Symbol.RBRACK);
                        List<AstNode> args = new ArrayList<>();
                        args.add(v);
                        args.add(first == null ? new AstNull() : first);
                        args.add(stop == null ? new AstNull() : stop);
                        args.add(step == null ? new AstNull() : step);
                        v = function(Engine.SLICE, new AstParameters(args));
                    } else {
                        consumeToken(Scanner.Symbol.RBRACK);
                        AstNode bracket = createAstBracket(v, first, lvalue, true);
                        if (getToken().getSymbol() == Scanner.Symbol.LPAREN) {
                            v = createAstMethod((AstProperty) bracket, params());
                        } else {
                            v = bracket;
                        }
                    }
                    break;
                default:
                    return v;
            }
        }
    }

    @Override
    protected AstMethod createAstMethod(AstProperty property, AstParameters params) {
        return new Call(property, params);
    }

    /**
     * A method call, a filter or a test whose target does not exist is an error: jinjava would
     * render nothing (Hugging Face's Jinja raises one).
     */
    static final class Call extends AstMethod {
        private static final long serialVersionUID = 1L;

        private final AstProperty property;

        Call(AstProperty property, AstParameters params) {
            super(property, params);
            this.property = property;
        }

        @Override
        public Object eval(Bindings bindings, ELContext context) {
            Node prefix = property.getChild(0);
            if (prefix instanceof AstNode p && p.eval(bindings, context) == null) {
                String target = String.valueOf(prefix);
                String call = String.valueOf(property);
                String method = call.substring(call.lastIndexOf('.') + 1).trim();
                int f = target.indexOf(FILTER_PREFIX);
                if (f >= 0) {
                    throw new Values.Unrenderable(
                            "unknown filter " + target.substring(f + FILTER_PREFIX.length()));
                }
                int t = target.indexOf(EXPTEST_PREFIX);
                if (t >= 0) {
                    throw new Values.Unrenderable(
                            "unknown test " + target.substring(t + EXPTEST_PREFIX.length()));
                }
                throw new Values.Unrenderable("cannot call " + method + "() on an undefined value");
            }
            return super.eval(bindings, context);
        }
    }

    /** {@code +} and {@code ~} as Hugging Face's Jinja applies them. */
    static final class Plus extends AstBinary.SimpleOperator {
        static final Plus PLUS = new Plus(false);
        static final Plus TILDE = new Plus(true);

        private final boolean tilde;

        private Plus(boolean tilde) {
            this.tilde = tilde;
        }

        @Override
        protected Object apply(TypeConverter converter, Object a, Object b) {
            String op = tilde ? "~" : "+";
            if (a == null || b == null) {
                throw new Values.Unrenderable(
                        "Cannot perform operation " + op + " on undefined values");
            }
            if (a instanceof None || b instanceof None) {
                throw new Values.Unrenderable("Cannot perform operation on null values");
            }
            if (!tilde) {
                if (Tests.type(a).equals("IntegerValue") && Tests.type(b).equals("IntegerValue")) {
                    return ((Number) a).longValue() + ((Number) b).longValue();
                }
                if (a instanceof Number x && b instanceof Number y) {
                    return x.doubleValue() + y.doubleValue();
                }
                if (a instanceof List<?> x && b instanceof List<?> y) {
                    List<Object> out = new ArrayList<>(x);
                    out.addAll(y);
                    return out;
                }
                if (!(a instanceof CharSequence || b instanceof CharSequence)) {
                    throw new Values.Unrenderable(
                            "Unknown operator \"+\" between "
                                    + Tests.type(a)
                                    + " and "
                                    + Tests.type(b));
                }
            }
            return text(a, op) + text(b, op);
        }

        /** JavaScript's toString of the operand's value, where it is a meaningful text. */
        private static String text(Object v, String op) {
            if (v instanceof CharSequence s) {
                return s.toString();
            }
            if (v instanceof Boolean x) {
                return x ? "true" : "false";
            }
            if (v instanceof Double d) {
                return Values.jsNumber(d);
            }
            if (v instanceof Number n) {
                return n.toString();
            }
            String what =
                    v instanceof Map ? "a mapping" : v instanceof List ? "a list" : Tests.type(v);
            throw new Values.Unrenderable(
                    "'"
                            + op
                            + "' with "
                            + what
                            + " (Hugging Face's Jinja would write JavaScript's "
                            + (v instanceof Map ? "\"[object Map]\"" : "comma-joined text")
                            + ", Python's Jinja raises an error)");
        }
    }
}
