// fuzz_variants (session 13): `frag56` (an entry function declared earlier) used as a value inside a function,
// under macros: the preserving check said UndeclaredIdentifier and every variant UseBeforeDeclaration (see
// entry-names-used-as-values.shader).
Shader "Fuzz/Generated" {
  Number rs0;
  StencilState state1 {
    ReferenceValue = rs0;
    WriteMask = 7.45;
    FailOperationBack = StencilOperation.DecrementWrap;
    ZFailOperationBack = StencilOperation.Zero;
  }
  StencilState = state1;
  StencilState state2 {
    ReferenceValue = 15;
    Mask = rs0;
    CompareFunctionFront = CompareFunction.Never;
  }
  StencilState = state2;
  RenderQueueType = AlphaTest;
  struct S3 {
    ivec2 m4[4];
    bvec4 m5;
  };
  struct S6 {
    mat4 m7;
  };
  const int K8 = 2;
  vec2 fn9(int p10) {
    p10--;
    return refract(vec3(2.5).rg.ss, (bool(6.5) ? vec2(1.0) : vec3(100.0).sp), float(tan(2.0)));
  }
  SubShader "Default" {
    Tags { replacementTag = "Opaque" }
    RenderQueueType = Transparent;
    const int K11 = 1;
    uniform sampler2D material_Tex12;
    Pass "P0" {
      Tags { pipelineStage = "Forward" }
      Number rs13;
      CullMode rs14;
      StencilState = {
        WriteMask = 8;
      }
      BlendState = {
        AlphaBlendOperation = BlendOperation.Add;
        DestinationColorBlendFactor[0] = BlendFactor.OneMinusSourceColor;
      }
      mat4 renderer_MVPMat;
      sampler2D material_Tex15;
      sampler2D material_Tex16;
      uniform vec4 scene_U17;
#ifdef SCENE_USE_FOG
      float material_C18;
#else
      float material_C18;
#endif
#ifdef FUZZ_VARIANT_B
      vec4 fn19(inout vec4 p20) {
        for (int i21 = 0; i21 < 3; i21++) {
          for (int i22 = 0; i22 < 4; i22++) {
            p20 = max(vec4((false ? material_C18 : 5.0), scene_U17.psp.z, (false ? material_C18 : material_C18), (i21 <= 15)), smoothstep(p20.sqpp.yzzz.wyz.xzzx, vec4(5.0, false, 0.0, material_C18), min(p20, 0.0)));
            p20.qtp = floor((mat3(vec3(scene_U17.s), p20.ppq, vec3(1.5)) * (p20.ggr * mat3(material_C18))));
          }
          const bool l23 = bvec4(false, any(bvec2(false)), true, all(bvec2(true))).t;
          --p20;
          p20++;
        }
        return scene_U17;
      }
#endif
      uvec2 fn24(inout bvec4 p25
#ifdef FUZZ_VARIANT_B
, sampler2D p26
#endif
) {
        uint l27;
        ivec2 l28 = (all(bvec3(false, true, bvec4(false).x)) ? ((false ? ivec2(K11) : ivec2(13)) + abs(ivec2(4))) : (ivec2(13) + min(ivec2(2), ivec2(14))));
        bvec2 l29 = bvec2(p25.g);
        if (any(p25)) {
          l29.st = lessThan(fn9((true ? 5 : K8)), inversesqrt(scene_U17.pt));
          l29 = l29;
          if (any(p25)) {
            l29 = lessThanEqual(smoothstep(scene_U17.x, material_C18, vec3(1.5)), (vec3(material_C18) - scene_U17.p)).yz;
          }
        } else {
          l29.xy = l29;
          switch (int(bvec3(all(l29)))) {
            case 4: {
              ++l28;
              vec4 l30;
              --l30;
            }
            break;
            case 5: {
              p25.wx = (false ? bvec4(false).yzy : p25.xyw).rbrb.wy;
              ivec2 l31 = ivec2(((false ? 0xB3 : K11) / 7), K11);
              l29 = l29;
            }
            break;
            case 6: {
              l28 = clamp(l28, sign(l28.st.ts.ggrg).g, clamp(ivec2(10), l28.rg.y, K11).g);
              vec3 l32 = vec3(material_C18);
              ivec3 l33 = clamp((abs(ivec3(K11)) - (l28.yy.xx.grg & ivec3(K11))), abs(l28.xx.ssss).w, K8);
            }
            break;
            default: {
              p25 = bvec4((scene_U17.sptq.pqp[0] > (material_C18 + vec4(6.0).b)));
              l29 = l29;
              l27 *= l27;
            }
            break;
          }
        }
        if (any(bvec2(l29.r))) {
          p25 = p25;
#ifdef FUZZ_VARIANT_B
#ifndef MATERIAL_IS_ALPHA_CUTOFF
          ++l27;
          int l34 = (l29.rgrr.a ? ivec3(l28.rg, l28.stt) : ivec3(K8)).s;
#ifdef SCENE_USE_FOG
          for (int i35 = 0; i35 < 1; i35++) {
            ++l34;
            S3 l36 = S3(ivec2[4]((l28 * 7), l28, (l28 >> 3), (l28 % 7)), equal(vec4(vec3(material_C18), scene_U17.ab), (scene_U17.tttq * renderer_MVPMat)));
          }
#endif
          uvec2 l40 = (false ? uvec2(0u) : uvec2(l27)).yyyy.ga;
#else
          switch (K11) {
            case 2: {
              l27 += uvec3(l27).grgb.xw.t;
              l29 = bvec2(any(p25));
              l28 += (false ? (true ? ivec3(K8) : l28.rgr).pt : ivec2(clamp(K8, 16, 10)));
              l28 = l28;
            }
            break;
            case 5: {
              p25 = bvec4((uvec4(ivec2(l28.t).xx.grrg) - uvec2(1u).rrrr));
              p25 = lessThan(clamp(scene_U17, scene_U17[2], material_C18), tan(vec4(vec2(0.5), scene_U17)));
              l27++;
              l29 = lessThan((3. - scene_U17.agaa).ww, fn9((l29.x ? K11 : 0)));
            }
            break;
            case 7: {
              vec3 l37 = (pow(2.5, material_C18) - (scene_U17.grg / 2.0).gbg);
              l27 = 8u;
              l27 = (l27 / 2u);
              l27++;
            }
            break;
            default: {
              int l38 = abs(ivec2(K8)).g;
              vec3 l39 = vec3((true ? scene_U17.xyw : vec3(scene_U17.y).yyz));
              l39 = (all(bvec4(l39.zxzz)) ? vec3(vec4(2.0, bvec2(false).grrg.rr.y, false, material_C18)) : (l39 * transpose(mat3(material_C18))));
            }
            break;
          }
          l29 = lessThanEqual(fract(step(vec2(7.5), scene_U17.zx)), vec2(float(l28.tttt)));
          l29.t = true;
          uvec2 l40 = ((l27 * (uvec2(l27) / 3u)) >> 7);
#endif
          mat2 l45 = (mat2(5.5) - mat2(material_C18, material_C18, faceforward(material_C18, material_C18, 1.0), (material_C18 + 3.0)));
#else
          uvec2 l41[3];
          l41[0] = l41[K8];
          l27 *= l27;
          if (any(lessThanEqual((vec4(material_C18) / 4.0), (true ? scene_U17 : vec4(material_C18))))) {
            l27 = uint(uvec2(p25.t, l27).g);
            const bool l42 = all(bvec4(any(bvec4(true)), bvec2(true, true), bvec2(true).tt));
            l28++;
            p25.ag = bvec2(bvec2(false).gg);
            l29.ts = greaterThanEqual(fn9(K8), (l42 ? (false ? scene_U17.sp : scene_U17.wx) : vec2(3.0).rg));
            return (~(l41[2].yyx / 2u)).gb;
          } else {
            vec3 l43 = vec3(pow(scene_U17, scene_U17.yzxw.xxx.spts));
          }
          ivec2 l44[4];
          l44[0] = ivec2(K11, l44[0].rgrr);
          p25 = bvec4(any(bvec4(false, true, true, true)), l29, uvec3(l41[1], (l41[K11].rg.rgg - l41[0].xyx)));
          mat2 l45 = (-mat2(material_C18, scene_U17[3], floor(material_C18), (1.5 / 4.0)));
#endif
          ivec3 l46 = (bvec2(false, true).g ? ivec2(K11).xxy : (min(l28.tss, l28.sst) + l28.yxyy.qsq));
        }
        return ((!bvec4(true)[3]) ? (uvec2(6u) | uvec2(l27)).gg : uvec2(uvec2(0u).x, bool(l28.rrr)));
      }
      struct Attributes47 {
        vec4 POSITION;
        vec3 NORMAL;
        vec4 WEIGHTS_0;
      };
      struct Varyings50 {
        vec3 v48;
#ifndef SCENE_USE_FOG
        vec3 v49;
#endif
      };
      Varyings50 vert51(Attributes47 attr52) {
        Varyings50 o53;
        if (true) {
          float l54[4];
          l54[0] = float(K8);
        }
        o53.v48 = radians((attr52.NORMAL.ggb / 4.0));
        vec3 l55;
        l55.br = vec2(fn9(K11));
        o53.v48 = (attr52.NORMAL + vec3(vec3(material_C18)));
        gl_Position = scene_U17;
        o53.v48 = trunc(exp2(o53.v48));
#ifndef SCENE_USE_FOG
        o53.v49 = o53.v48;
#endif
        return o53;
      }
      vec4 frag56(Varyings50 v57) {
        if (all(bvec2(ivec4(6)).ggrr)) {
#ifndef SCENE_USE_FOG
          for (int i58 = 0; i58 < 4; i58++) {
            float l59 = sin(v57.v49).x;
          }
          int l60 = K11;
          S3 l61 = S3(ivec2[4](ivec2(l60).gr, (~ivec2(K8)), ivec2(0).tt, ivec4(15).sq), bvec4(bool(false), gl_FrontFacing, bool(v57.v49.bb), any(bvec2(true))));
          ivec2 l65 = l61.m4[2];
#else
          const int l62 = clamp(K8, sign((true ? 12 : 8)), K8);
          bvec4 l63 = bvec3(bvec4(gl_FrontFacing, true, gl_FrontFacing, gl_FrontFacing)).xzzz;
          const vec4 l64 = vec4((bool(8.0) ? (true ? bvec4(true) : bvec4(true)) : equal(vec4(7.0), vec4(1.0))));
          ivec2 l65 = (abs(ivec2(ivec3(16))) >> 6);
#endif
#ifdef FUZZ_VARIANT_B
          float l66 = material_C18;
          S6 l67 = S6(renderer_MVPMat);
          l65--;
          if ((gl_FrontFacing ? lessThanEqual(v57.v48, v57.v48) : bvec4(gl_FrontFacing).yzz).b) {
            l66 /= 2.0;
            l66 = (false ? (-v57.v48[2]) : float(ivec2(l65.g).grgg.sqp));
          } else {
            float l68[4];
            l68[0] = float(l65.xxyx);
            float l69 = l68[1];
            l68[K11] *= l68[1];
            l67.m7 /= 2.0;
          }
          S6 l70 = l67;
#else
          l65 = (all(bvec4(l65.yxxy)) ? l65 : l65);
          if (all(bvec4(true).rgag)) {
            l65 = (ivec2(gl_FragCoord) + (l65 * l65.rr)).yx;
          }
          S6 l70 = S6(renderer_MVPMat);
#endif
          discard;
        }
        {
          const bool l71 = (false ^^ any(greaterThan(vec3(7.0), vec3(7.0))));
          {
            int l72[4];
            l72[0] = (~1);
            l72[K8] = K11;
          }
        }
        return atan((scene_U17 * mat4(scene_U17, scene_U17, scene_U17, scene_U17)));
      }
      VertexShader = vert51;
      Fragme
ntShader = frag56;
    }
  }
}
