#!/usr/bin/env python3
"""Writes a module with one dist.compute whose statement nests N levels deep.

usage: deep-statement.py KIND N
  paren: A(i) = ((...(B(i))...))        N parentheses
  neg:   A(i) = --...-B(i)              N negations
  sum:   A(i) = B(i) + B(i) + ...       N additions (a chain N operators deep)
  mixed: A(i) = -(-(...-(B(i))...))     N negations, each around parentheses
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
rhs = {
    "paren": lambda: "(" * n + "B(i)" + ")" * n,
    "neg": lambda: "-" * n + "B(i)",
    "sum": lambda: " + ".join(["B(i)"] * (n + 1)),
    "mixed": lambda: "-(" * n + "B(i)" + ")" * n,
}[kind]()
print('dist.grid @m [1]')
print('!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>')
print('func.func @f(%a: !T, %b: !T) {')
print('  dist.compute "A(i) = ' + rhs + '" (A = %a, B = %b) : !T, !T')
print('  return')
print('}')
