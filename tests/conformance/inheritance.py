# %% override_and_super
class Animal:
    def __init__(self, name):
        self.name = name
    def speak(self):
        return "..."
    def intro(self):
        return self.name + " says " + self.speak()
class Dog(Animal):
    def speak(self):
        return "woof"
class Puppy(Dog):
    def speak(self):
        return super().speak() + "!"
print(Animal("a").intro(), Dog("d").intro(), Puppy("p").intro())
# %% super_init
class Base:
    def __init__(self, x):
        self.x = x
        print("Base init", x)
class Child(Base):
    def __init__(self, x, y):
        super().__init__(x)
        self.y = y
        print("Child init", y)
c = Child(1, 2)
print(c.x, c.y)
# %% inherited_init
class Base:
    def __init__(self):
        self.tag = "base"
class Child(Base):
    def hello(self):
        return "hi " + self.tag
print(Child().hello())
# %% isinstance_hierarchy
class A: pass
class B(A): pass
class C(B): pass
c = C()
print(isinstance(c, A), isinstance(c, B), isinstance(B(), C), type(c) is A, type(c) is C)
# %% class_attribute_inheritance
class A:
    kind = "A"
    def who(self):
        return self.kind
class B(A):
    kind = "B"
print(A().who(), B().who(), B.kind)
# %% method_resolution_through_self
class Module:
    def __call__(self, x):
        return self.forward(x)
    def forward(self, x):
        raise NotImplementedError
class Double(Module):
    def forward(self, x):
        return 2 * x
print(Double()(21))
# %% not_implemented_in_base
class Module:
    def forward(self, x):
        raise NotImplementedError("subclasses implement forward")
try:
    Module().forward(1)
except NotImplementedError as e:
    print("caught:", e)
# %% super_in_method_chain
class A:
    def f(self):
        return ["A"]
class B(A):
    def f(self):
        return ["B"] + super().f()
class C(B):
    def f(self):
        return ["C"] + super().f()
print(C().f())
# %% type_name_of_subclass
class Base: pass
class Sub(Base): pass
print(type(Sub()), type(Sub()).__name__)
# %% inherit_from_exception
class MyError(Exception):
    pass
class Specific(MyError):
    pass
try:
    raise Specific("bad")
except MyError as e:
    print(type(e).__name__, e, isinstance(e, Exception))
# %% subclass_adds_attributes
class Layer:
    def __init__(self, n):
        self.n = n
class Dense(Layer):
    def __init__(self, n, act="relu"):
        super().__init__(n)
        self.act = act
d = Dense(4)
print(d.n, d.act)
